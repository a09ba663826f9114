using System.Buffers;
using System.Net;
using System.Runtime.CompilerServices;
using FileTransfer.Protos.V1;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Client.Transport.Grpc;

/// <summary>The gRPC <c>filetransfer.v1.FileService</c>: one metadata message, then chunks, both ways.</summary>
internal sealed partial class GrpcTransport(FileService.FileServiceClient client, Uri address, string? apiKey, IDisposable? owned) : IFileTransport
{
    // How long a failed upload write waits for the status the server ended the call with.
    private static readonly TimeSpan StatusWait = TimeSpan.FromSeconds(5);

    public async Task<RemoteFileInfo> GetInfoAsync(string name, CancellationToken cancellationToken)
    {
        EnsureName(name);
        try
        {
            return Describe(await client.GetFileInfoAsync(new GetFileInfoRequest { FileName = name }, Headers(), cancellationToken: cancellationToken));
        }
        catch (RpcException e)
        {
            throw await FailAsync(e, name, cancellationToken);
        }
    }

    public async IAsyncEnumerable<RemoteFileInfo> ListAsync(string? prefix, int pageSize, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var token = string.Empty;
        do
        {
            ListFilesResponse page;
            try
            {
                page = await client.ListFilesAsync(
                    new ListFilesRequest { Prefix = prefix ?? string.Empty, PageSize = pageSize, PageToken = token }, Headers(), cancellationToken: cancellationToken);
            }
            catch (RpcException e)
            {
                throw await FailAsync(e, prefix ?? string.Empty, cancellationToken);
            }

            foreach (var file in page.Files)
            {
                yield return Describe(file);
            }

            // Empty on the last page.
            token = page.NextPageToken;
        }
        while (token.Length > 0);
    }

    public async Task DeleteAsync(string name, string? ifMatch, CancellationToken cancellationToken)
    {
        EnsureName(name);
        try
        {
            await client.DeleteFileAsync(new DeleteFileRequest { FileName = name, IfMatch = ifMatch ?? string.Empty }, Headers(), cancellationToken: cancellationToken);
        }
        catch (RpcException e)
        {
            throw await FailAsync(e, name, cancellationToken);
        }
    }

    public async Task<DownloadResponse> OpenDownloadAsync(string name, long offset, string? ifRange, CancellationToken cancellationToken)
    {
        EnsureName(name);
        try
        {
            return await StartDownloadAsync(name, offset, ifRange, cancellationToken);
        }
        catch (RpcException e) when (e.StatusCode == StatusCode.FailedPrecondition && ifRange is not null)
        {
            // if_match is strict (no bytes when the file changed); the core expects If-Range
            // semantics (RFC 9110 13.1.5): a changed file is sent whole.
            try
            {
                return await StartDownloadAsync(name, 0, null, cancellationToken);
            }
            catch (RpcException again)
            {
                throw await FailAsync(again, name, cancellationToken);
            }
        }
        catch (RpcException e)
        {
            throw await FailAsync(e, name, cancellationToken);
        }
    }

    public async Task<UploadResponse> UploadAsync(UploadRequest upload, Stream content, Action<int> sent, CancellationToken cancellationToken)
    {
        EnsureName(upload.Name);
        using var call = client.UploadFile(Headers(), cancellationToken: cancellationToken);
        var buffer = ArrayPool<byte>.Shared.Rent(upload.ChunkSize);
        long sentBytes = 0;
        try
        {
            var metadata = new FileMetadata { FileName = upload.Name, Size = upload.Length ?? 0, Overwrite = upload.Overwrite };
            if (upload.Sha256 is { } digest)
            {
                metadata.Sha256 = ByteString.CopyFrom(digest);
            }

            await WriteAsync(call, new UploadFileRequest { Metadata = metadata }, upload.Name, sentBytes, cancellationToken);
            int read;

            // One message for every chunk, and no copy of the bytes: the message is serialized before
            // WriteAsync completes, so both the message and the pooled buffer can be reused.
            var message = new UploadFileRequest();
            while ((read = await content.ReadAsync(buffer.AsMemory(0, upload.ChunkSize), cancellationToken)) > 0)
            {
                message.Chunk = UnsafeByteOperations.UnsafeWrap(buffer.AsMemory(0, read));
                await WriteAsync(call, message, upload.Name, sentBytes, cancellationToken);
                sentBytes += read;
                sent(read);
            }

            await WriteAsync(call, null, upload.Name, sentBytes, cancellationToken);
            var response = await call.ResponseAsync;
            return new UploadResponse(Describe(response.Metadata), Created: null);
        }
        catch (RpcException e)
        {
            throw await FailedAsync(e, upload.Name, sentBytes, cancellationToken);
        }
        catch (InvalidOperationException)
        {
            // Writing after the server ended the call: its status says why.
            throw await FailedAsync(await FinalStatusAsync(call) ?? throw new FileTransferException(
                FileTransferErrorKind.ServerError, $"The server ended the upload of '{upload.Name}' before it was complete."), upload.Name, sentBytes, cancellationToken);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    public void Dispose() => owned?.Dispose();

    private async Task<DownloadResponse> StartDownloadAsync(string name, long offset, string? ifMatch, CancellationToken cancellationToken)
    {
        var call = client.DownloadFilePooled(
            new DownloadFileRequest { FileName = name, Offset = offset, IfMatch = ifMatch ?? string.Empty }, Headers(), cancellationToken);
        try
        {
            // The contract: exactly one metadata message first (size of the whole file, ETag, SHA-256).
            if (!await call.ResponseStream.MoveNext(cancellationToken) || call.ResponseStream.Current.Metadata is not { } metadata)
            {
                call.ResponseStream.Current?.TakeChunk()?.Return();
                throw new FileTransferException(FileTransferErrorKind.ServerError, $"The server did not start the download of '{name}' with the file's metadata.");
            }

            return new DownloadResponse(Describe(metadata), offset, ReadChunksAsync(call, name), call);
        }
        catch
        {
            call.Dispose();
            throw;
        }
    }

    private async IAsyncEnumerable<PooledChunk> ReadChunksAsync(
        AsyncServerStreamingCall<DownloadMessage> call, string name, [EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        while (true)
        {
            bool more;
            try
            {
                more = await call.ResponseStream.MoveNext(cancellationToken);
            }
            catch (RpcException e)
            {
                throw await FailAsync(e, name, cancellationToken);
            }

            if (!more)
            {
                yield break;
            }

            // The message's pooled array goes to the caller (PooledChunk), who returns it.
            if (call.ResponseStream.Current.TakeChunk() is not { } chunk)
            {
                throw new FileTransferException(FileTransferErrorKind.ServerError, $"The server sent a second metadata message in the download of '{name}'.");
            }

            yield return chunk;
        }
    }

    /// <summary>Writes one message (null: completes the request stream); a connection that breaks under it is a lost connection.</summary>
    private async Task WriteAsync(AsyncClientStreamingCall<UploadFileRequest, UploadFileResponse> call, UploadFileRequest? message, string name, long sentBytes, CancellationToken cancellationToken)
    {
        try
        {
            await (message is null ? call.RequestStream.CompleteAsync() : call.RequestStream.WriteAsync(message, cancellationToken));
        }
        catch (Exception e) when ((HttpHandlers.IsConnectionFailure(e) || e is RpcException { StatusCode: StatusCode.Cancelled }) && !cancellationToken.IsCancellationRequested)
        {
            // A server that refuses the upload (ALREADY_EXISTS, RESOURCE_EXHAUSTED, ...) ends the call
            // while chunks are still on their way, and the next write runs into a reset or cancelled
            // stream: when the server's status arrived, that status says why, not the write.
            if (await FinalStatusAsync(call) is { } final)
            {
                throw await FailedAsync(final, name, sentBytes, cancellationToken);
            }

            if (e is RpcException rpc)
            {
                throw await FailedAsync(rpc, name, sentBytes, cancellationToken);
            }

            throw new FileTransferException(FileTransferErrorKind.ConnectionLost,
                $"The upload was cut after {sentBytes} bytes. The connection to {address.GetLeftPart(UriPartial.Authority)} was lost: {HttpHandlers.Innermost(e).Message}",
                innerException: e);
        }
    }

    // A server that refuses (ALREADY_EXISTS, DATA_LOSS, ...) ends the call while chunks are still
    // being written; a connection lost mid-upload says how far it got.
    private async Task<Exception> FailedAsync(RpcException e, string name, long sentBytes, CancellationToken cancellationToken)
    {
        var failure = await FailAsync(e, name, cancellationToken);
        return failure is FileTransferException { Kind: FileTransferErrorKind.ConnectionLost } lost && sentBytes > 0
            ? new FileTransferException(lost.Kind, $"The upload was cut after {sentBytes} bytes. {lost.Message}", lost.Status, lost.Detail, e)
            : failure;
    }

    // The caller's own cancellation (or the stall guard's) is an OperationCanceledException, as over
    // REST; a CANCELLED the caller did not ask for is a reset stream. A call on a cleartext port
    // that failed before the server answered, for no reason that says why, asks the port whether
    // it speaks HTTP/2 at all.
    private async Task<Exception> FailAsync(RpcException e, string name, CancellationToken cancellationToken)
    {
        if (e.StatusCode == StatusCode.Cancelled && cancellationToken.IsCancellationRequested)
        {
            return new OperationCanceledException(e.Message, e, cancellationToken);
        }

        var refused = address.Scheme == Uri.UriSchemeHttp && GrpcErrors.FailedUnanswered(e) && await Http2Probe.RefusedAsync(address, cancellationToken);
        return GrpcErrors.Map(e, name, address, portRefusesHttp2: refused);
    }

    // The status the server ended the call with, or null when it has none to give: the call
    // succeeded, or nothing arrived within a few seconds (a connection that is really gone).
    private static async Task<RpcException?> FinalStatusAsync(AsyncClientStreamingCall<UploadFileRequest, UploadFileResponse> call)
    {
        try
        {
            await call.ResponseAsync.WaitAsync(StatusWait);
            return null;
        }
        catch (RpcException e)
        {
            return e;
        }
        catch (TimeoutException)
        {
            return null;
        }
    }

    private Metadata? Headers() => apiKey is null ? null : new Metadata { { "authorization", "Bearer " + apiKey } };

    private static void EnsureName(string name)
    {
        if (Links.TryParse(name, out _))
        {
            throw new FileTransferException(FileTransferErrorKind.InvalidRequest,
                $"'{name}' is a signed link, which is a REST URL: use the REST protocol for it.");
        }

        if (name.Length == 0)
        {
            throw new FileTransferException(FileTransferErrorKind.InvalidRequest, "The file name is empty.");
        }
    }

    private static RemoteFileInfo Describe(FileMetadata metadata) => new()
    {
        Name = metadata.FileName,
        Size = metadata.Size,
        ContentType = metadata.ContentType.Length == 0 ? null : metadata.ContentType,
        LastModified = metadata.LastModified?.ToDateTimeOffset(),
        ETag = metadata.Etag.Length == 0 ? null : metadata.Etag,
        Sha256 = metadata.Sha256.Length == 32 ? metadata.Sha256.ToByteArray() : null,
        HttpVersion = HttpVersion.Version20,
    };
}
