using FileTransfer.Core;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Security;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Server.Grpc;

internal sealed partial class FileGrpcService
{
    /// <summary>
    /// Client streaming: one metadata message, then chunks, through the same core upload as REST
    /// PUT: the size limit checked as bytes arrive, digest and declared size verified, and the
    /// backend's atomic commit. A cancelled, failed or cut call commits nothing; disposing the
    /// upload discards what it staged.
    /// </summary>
    [Operation(FileOperation.Write)]
    public override Task<UploadFileResponse> UploadFile(IAsyncStreamReader<UploadFileRequest> requestStream, ServerCallContext context) =>
        UploadPace.RunAsync(kestrel.Value.Limits.MinRequestBodyDataRate, context.CancellationToken, pace => ReceiveAsync(requestStream, context, pace));

    private async Task<UploadFileResponse> ReceiveAsync(IAsyncStreamReader<UploadFileRequest> requestStream, ServerCallContext context, UploadPace pace)
    {
        var cancellationToken = pace.Token;
        if (!await requestStream.MoveNext(cancellationToken))
        {
            throw InvalidStream("The upload stream is empty: send a metadata message, then the chunks.");
        }

        if (requestStream.Current.DataCase != UploadFileRequest.DataOneofCase.Metadata)
        {
            throw InvalidStream("The first message must be metadata (file_name, optional size and sha256, overwrite or if_match).");
        }

        await using var upload = await files.BeginUploadAsync(Callers.Of(context.GetHttpContext()), Describe(requestStream.Current.Metadata) with { TransferOrigin = Origin(context) }, cancellationToken);
        while (await requestStream.MoveNext(cancellationToken))
        {
            var message = requestStream.Current;
            if (message.DataCase != UploadFileRequest.DataOneofCase.Chunk)
            {
                throw InvalidStream("Only chunk messages may follow the metadata message.");
            }

            pace.Add(message.Chunk.Length);
            await upload.AppendAsync(message.Chunk.Memory, cancellationToken);
            // The upload has copied or written the bytes: the chunk's pooled array can serve the next message.
            message.ReturnChunk();
        }

        var result = await files.CommitAsync(upload, cancellationToken);
        LogStored(logger, result.File.Name, result.File.Size);
        return new UploadFileResponse { Metadata = ProtoFiles.Metadata(result.File, result.Sha256), Created = !result.Replaced };
    }

    /// <summary>
    /// The contract's metadata as the core's request. One overwrite semantic with REST: an upload
    /// creates or replaces; <c>overwrite = false</c> (proto3's default) is REST's <c>If-None-Match: *</c>,
    /// <c>if_match</c> is REST's <c>If-Match</c> and implies overwrite.
    /// </summary>
    private static UploadRequest Describe(FileMetadata metadata)
    {
        if (metadata.Size < 0)
        {
            throw InvalidStream("size must not be negative (0 means unknown).");
        }

        return new UploadRequest(metadata.FileName)
        {
            // proto3 cannot tell "0" from "not set": a declared size of 0 means unknown.
            DeclaredLength = metadata.Size > 0 ? metadata.Size : null,
            ExpectedSha256 = ExpectedSha256(metadata.Sha256),
            Preconditions = PreconditionsOf(metadata.IfMatch, metadata.Overwrite),
            Protocol = TransferProtocol.Grpc,
        };
    }

    // The whole file's digest, or null when the client sends none.
    private static byte[]? ExpectedSha256(ByteString sha256) => sha256.Length switch
    {
        0 => null,
        32 => sha256.ToByteArray(),
        _ => throw InvalidStream("sha256 must be the 32 bytes of a SHA-256 digest, or empty."),
    };

    // if_match implies overwrite; without either an upload only creates (proto3's default false).
    private static Preconditions PreconditionsOf(string ifMatch, bool overwrite) =>
        ifMatch.Length > 0 ? Preconditions.IfMatches(ifMatch) : new Preconditions(MustNotExist: !overwrite);

    private static FileTransferException InvalidStream(string message) => new(ErrorReason.InvalidUploadStream, message);

    [LoggerMessage(EventId = 60, Level = LogLevel.Debug, Message = "gRPC upload stored {Name} ({Size} bytes)")]
    private static partial void LogStored(ILogger logger, string name, long size);
}
