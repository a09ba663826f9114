using FileTransfer.Protos.V1;
using FileTransfer.Server.Security;
using FileTransfer.Server.Storage;
using Grpc.Core;
using Microsoft.AspNetCore.Authorization;

namespace FileTransfer.Server.Grpc;

internal sealed partial class FileGrpcService
{
    /// <summary>
    /// Client streaming: one metadata message, then chunks, through one upload session exactly as
    /// REST PUT: a hidden temporary file, the size limit checked as bytes arrive, digest and
    /// declared size verified, fsync and an atomic rename. A cancelled, failed or cut call commits
    /// nothing; disposing the session removes the temporary file.
    /// </summary>
    [Authorize(Scopes.Write)]
    public override async Task<UploadFileResponse> UploadFile(IAsyncStreamReader<UploadFileRequest> requestStream, ServerCallContext context)
    {
        var cancellationToken = context.CancellationToken;
        if (!await requestStream.MoveNext(cancellationToken))
        {
            throw GrpcErrors.InvalidArgument(GrpcErrors.Reasons.InvalidUploadStream, "The upload stream is empty: send a metadata message, then the chunks.");
        }

        if (requestStream.Current.DataCase != UploadFileRequest.DataOneofCase.Metadata)
        {
            throw GrpcErrors.InvalidArgument(GrpcErrors.Reasons.InvalidUploadStream, "The first message must be metadata (file_name, optional size and sha256, overwrite).");
        }

        var request = Describe(requestStream.Current.Metadata, context);
        await using var session = store.BeginUpload(request);
        while (await requestStream.MoveNext(cancellationToken))
        {
            var message = requestStream.Current;
            if (message.DataCase != UploadFileRequest.DataOneofCase.Chunk)
            {
                throw GrpcErrors.InvalidArgument(GrpcErrors.Reasons.InvalidUploadStream, "Only chunk messages may follow the metadata message.");
            }

            await session.AppendAsync(message.Chunk.Memory, cancellationToken);
            // The session has copied or written the bytes: the chunk's pooled array can serve the next message.
            message.ReturnChunk();
        }

        var result = await session.CommitAsync(cancellationToken);
        LogStored(logger, result.File.Name, result.File.Size);
        return new UploadFileResponse { Metadata = ProtoFiles.Metadata(result.File, result.Sha256) };
    }

    private UploadRequest Describe(FileMetadata metadata, ServerCallContext context)
    {
        var path = Resolve(metadata.FileName);
        if (metadata.Size < 0)
        {
            throw GrpcErrors.InvalidArgument(GrpcErrors.Reasons.InvalidUploadStream, "size must not be negative (0 means unknown).");
        }

        if (metadata.Sha256.Length is not (0 or 32))
        {
            throw GrpcErrors.InvalidArgument(GrpcErrors.Reasons.InvalidUploadStream, "sha256 must be the 32 bytes of a SHA-256 digest, or empty.");
        }

        var request = new UploadRequest(path)
        {
            // proto3 cannot tell "0" from "not set": a declared size of 0 means unknown.
            DeclaredLength = metadata.Size > 0 ? metadata.Size : null,
            ExpectedSha256 = metadata.Sha256.IsEmpty ? null : metadata.Sha256.ToByteArray(),
            Preconditions = new Preconditions(MustNotExist: !metadata.Overwrite),
        };
        return UploadGrant.TryApply(context.GetHttpContext().User, request, out var granted)
            ? granted
            : throw GrpcErrors.InvalidArgument(GrpcErrors.Reasons.InvalidUploadStream, UploadGrant.DigestConflict);
    }

    [LoggerMessage(EventId = 60, Level = LogLevel.Debug, Message = "gRPC upload stored {Name} ({Size} bytes)")]
    private static partial void LogStored(ILogger logger, string name, long size);
}
