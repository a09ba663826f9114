using FileTransfer.Core;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Security;
using Google.Protobuf.WellKnownTypes;
using Grpc.Core;

namespace FileTransfer.Server.Grpc;

internal sealed partial class FileGrpcService
{
    // One line per interval however often a client cancels its own writes.
    private static readonly LogThrottle CancelledWrites = new(TimeSpan.FromSeconds(10));

    /// <summary>
    /// Begins a resumable upload: the same checks as UploadFile's metadata (name, size limit,
    /// overwrite / if_match), held until the file is stored. The same session as REST's
    /// <c>api/uploads/{upload_id}</c>.
    /// </summary>
    [Operation(FileOperation.Write)]
    public override async Task<UploadStatus> StartUpload(StartUploadRequest request, ServerCallContext context)
    {
        if (request.Length < 0)
        {
            throw InvalidStream("length must not be negative.");
        }

        var upload = new UploadRequest(request.FileName)
        {
            DeclaredLength = request.Length,
            ExpectedSha256 = ExpectedSha256(request.Sha256),
            Preconditions = PreconditionsOf(request.IfMatch, request.Overwrite),
            Protocol = TransferProtocol.Grpc,
        };
        return Status(await sessions.CreateAsync(upload, Callers.Of(context.GetHttpContext()), metadata: null, context.CancellationToken));
    }

    /// <summary>The durable offset, the length once known, the expiry, and the stored file once complete.</summary>
    [Operation(FileOperation.ManageUpload)]
    public override async Task<UploadStatus> GetUploadStatus(GetUploadStatusRequest request, ServerCallContext context) =>
        Status(await sessions.GetAsync(request.UploadId, Callers.Of(context.GetHttpContext()), context.CancellationToken));

    /// <summary>
    /// Client streaming: upload_id and write_offset first, then chunks; <c>finish</c> on the last
    /// message completes the upload. Held to the same minimum data rate as UploadFile. A call cut
    /// short keeps every byte that arrived: GetUploadStatus tells where to resume.
    /// </summary>
    [Operation(FileOperation.Write)]
    public override Task<UploadStatus> WriteUpload(IAsyncStreamReader<WriteUploadRequest> requestStream, ServerCallContext context) =>
        UploadPace.RunAsync(kestrel.Value.Limits.MinRequestBodyDataRate, context.CancellationToken, pace => WriteAsync(requestStream, context, pace));

    /// <summary>Cancels the upload: its bytes are removed and nothing is stored (a WriteUpload still running is ended first).</summary>
    [Operation(FileOperation.ManageUpload)]
    public override async Task<CancelUploadResponse> CancelUpload(CancelUploadRequest request, ServerCallContext context)
    {
        await sessions.CancelAsync(request.UploadId, Callers.Of(context.GetHttpContext()), TransferProtocol.Grpc, context.CancellationToken);
        return new CancelUploadResponse();
    }

    private async Task<UploadStatus> WriteAsync(IAsyncStreamReader<WriteUploadRequest> requestStream, ServerCallContext context, UploadPace pace)
    {
        if (!await requestStream.MoveNext(pace.Token))
        {
            throw InvalidStream("The write stream is empty: send upload_id and write_offset first, then the chunks.");
        }

        var message = requestStream.Current;
        var uploadId = message.UploadId;
        if (uploadId.Length == 0)
        {
            throw InvalidStream("The first message carries upload_id and write_offset.");
        }

        var request = new UploadWriteRequest(uploadId, Callers.Of(context.GetHttpContext()), message.WriteOffset) { TransferOrigin = Origin(context), Protocol = TransferProtocol.Grpc };
        await using var write = await sessions.BeginWriteAsync(request, pace.Token);

        // Ended at once when another request cancels the upload, as a REST append is: with ABORTED
        // and the reason, and one throttled line (a client may cancel and start again at will).
        using var call = CancellationTokenSource.CreateLinkedTokenSource(pace.Token, write.Stopped);
        try
        {
            return await AppendAsync(requestStream, write, message, pace, call.Token);
        }
        catch (Exception ex) when (write.Stopped.IsCancellationRequested && ex is OperationCanceledException or IOException or RpcException)
        {
            if (write.Superseded)
            {
                // The owner asked for the offset meanwhile: this call is over for it (it resumes elsewhere).
                throw Failures.UploadBusy();
            }

            if (CancelledWrites.ShouldLog(out var suppressed))
            {
                LogWriteCancelled(logger, uploadId, suppressed);
            }

            throw Failures.UploadCancelled();
        }
    }

    private async Task<UploadStatus> AppendAsync(IAsyncStreamReader<WriteUploadRequest> requestStream, UploadSessionWrite write, WriteUploadRequest message, UploadPace pace, CancellationToken cancellationToken)
    {
        var uploadId = write.Id;
        bool finish;
        while (true)
        {
            finish = message.Finish;
            if (!message.Chunk.IsEmpty)
            {
                pace.Add(message.Chunk.Length);
                await write.AppendAsync(message.Chunk.Memory, cancellationToken);
            }

            // The session has copied or written the bytes: the pooled array (and message) can serve the next message.
            message.ReturnChunk();
            if (finish || !await requestStream.MoveNext(cancellationToken))
            {
                break;
            }

            message = requestStream.Current;
            if (message.UploadId.Length > 0 && message.UploadId != uploadId)
            {
                throw InvalidStream("All messages of one WriteUpload belong to the upload the first one names.");
            }
        }

        if (finish && await requestStream.MoveNext(cancellationToken))
        {
            throw InvalidStream("No message may follow the one with finish.");
        }

        return Status((await write.FinishAsync(finish ? UploadEnd.Complete : UploadEnd.Partial, cancellationToken)).Session);
    }

    private UploadStatus Status(UploadSession session)
    {
        var status = new UploadStatus
        {
            UploadId = session.Id,
            FileName = session.Name,
            Offset = session.Offset,
            ExpiresAt = Timestamp.FromDateTimeOffset(session.ExpiresAt),
            Complete = session.IsComplete,
            Length = session.Length,
        };

        if (session.Completed is { } completed)
        {
            status.File = ProtoFiles.Metadata(files.Describe(completed.Stored), completed.Stored.Sha256);
            status.Created = !completed.Replaced;
        }

        return status;
    }

    [LoggerMessage(EventId = 260, Level = LogLevel.Information, Message = "Upload {UploadId} was cancelled while a WriteUpload was appending to it; the write was ended with ABORTED ({Suppressed} more since the last message)")]
    private static partial void LogWriteCancelled(ILogger logger, string uploadId, long suppressed);
}
