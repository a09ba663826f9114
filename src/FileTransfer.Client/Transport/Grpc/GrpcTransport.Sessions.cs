using System.Buffers;
using FileTransfer.Protos.V1;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Client.Transport.Grpc;

/// <summary>Resumable uploads over gRPC: StartUpload, GetUploadStatus, WriteUpload (the same sessions as REST's tus).</summary>
internal sealed partial class GrpcTransport
{
    public async Task<UploadSessionState> StartUploadSessionAsync(UploadRequest upload, CancellationToken cancellationToken)
    {
        EnsureName(upload.Name);
        try
        {
            var status = await client.StartUploadAsync(
                new StartUploadRequest
                {
                    FileName = upload.Name,
                    Length = upload.Length,
                    Sha256 = upload.Sha256 is { } digest ? ByteString.CopyFrom(digest) : ByteString.Empty,
                    Overwrite = upload.Overwrite,
                },
                Headers(),
                cancellationToken: cancellationToken);
            return State(status);
        }
        catch (RpcException e)
        {
            throw await FailAsync(e, upload.Name, cancellationToken);
        }
    }

    public async Task<UploadSessionState> GetUploadSessionAsync(string uploadId, CancellationToken cancellationToken)
    {
        try
        {
            return State(await client.GetUploadStatusAsync(new GetUploadStatusRequest { UploadId = uploadId }, Headers(), cancellationToken: cancellationToken));
        }
        catch (RpcException e)
        {
            throw await FailAsync(e, uploadId, cancellationToken);
        }
    }

    public async Task<UploadSessionState> FinishUploadSessionAsync(string uploadId, long offset, long length, Stream content, int chunkSize, Action<int> sent, CancellationToken cancellationToken)
    {
        using var call = client.WriteUpload(Headers(), cancellationToken: cancellationToken);
        var buffer = ArrayPool<byte>.Shared.Rent(chunkSize);
        try
        {
            await call.RequestStream.WriteAsync(new WriteUploadRequest { UploadId = uploadId, WriteOffset = offset, Finish = offset == length }, cancellationToken);

            // One message for every chunk, and no copy of the bytes: the message is serialized before
            // WriteAsync completes, so both the message and the pooled buffer can be reused.
            var message = new WriteUploadRequest();
            for (var position = offset; position < length;)
            {
                var read = await content.ReadAsync(buffer.AsMemory(0, (int)Math.Min(chunkSize, length - position)), cancellationToken);
                if (read == 0)
                {
                    throw new FileTransferException(FileTransferErrorKind.InvalidRequest, $"The local file ended at {position} of {length} bytes: it changed during the upload.");
                }

                position += read;
                message.Chunk = UnsafeByteOperations.UnsafeWrap(buffer.AsMemory(0, read));
                message.Finish = position == length;
                await call.RequestStream.WriteAsync(message, cancellationToken);
                sent(read);
            }

            await call.RequestStream.CompleteAsync();
            return State(await call);
        }
        catch (RpcException e)
        {
            throw await FailAsync(e, uploadId, cancellationToken);
        }
        catch (Exception e) when (e is IOException or HttpRequestException or InvalidOperationException && !cancellationToken.IsCancellationRequested)
        {
            // The connection broke (or the server ended the call) mid-stream: the server keeps what it
            // wrote, and the next run continues from there.
            throw new FileTransferException(FileTransferErrorKind.ConnectionLost,
                $"The connection was lost during upload {uploadId}; the server keeps the bytes it received: upload again to continue. {e.Message}", innerException: e);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private static UploadSessionState State(UploadStatus status) => new(status.UploadId, status.Offset, status.Complete);
}
