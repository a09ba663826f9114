using FileTransfer.Core;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Protocol;
using Grpc.Core;
using Grpc.Core.Interceptors;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// The gRPC twin of <see cref="RestTransferObserver"/>: counts the file bytes of DownloadFile and
/// UploadFile calls as they move, and ends each with one metrics update and one log line
/// (protocol "grpc"). It runs inside the error interceptor, so a core refusal reaches it as the
/// core's reason, and its outcome comes from the same table REST uses (<see cref="TransferOutcome.Of"/>).
/// A call the client cancelled, let pass its deadline, or cut off is aborted.
/// </summary>
internal sealed class GrpcTransferObserver(TransferMetrics metrics, ILogger<GrpcTransferObserver> logger) : Interceptor
{
    public const string Protocol = "grpc";

    public override async Task ServerStreamingServerHandler<TRequest, TResponse>(TRequest request, IServerStreamWriter<TResponse> responseStream, ServerCallContext context, ServerStreamingServerMethod<TRequest, TResponse> continuation)
    {
        if (request is not DownloadFileRequest download || responseStream is not IServerStreamWriter<DownloadFileResponse> chunks)
        {
            await continuation(request, responseStream, context);
            return;
        }

        var transfer = metrics.Start(Protocol, TransferDirection.Download);
        var counted = new CountingWriter(chunks, transfer);
        await ObserveAsync(transfer, download.FileName, context, () => continuation(request, (IServerStreamWriter<TResponse>)(object)counted, context));
    }

    public override async Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(IAsyncStreamReader<TRequest> requestStream, ServerCallContext context, ClientStreamingServerMethod<TRequest, TResponse> continuation)
    {
        if (requestStream is not IAsyncStreamReader<UploadFileRequest> messages)
        {
            return await continuation(requestStream, context);
        }

        var transfer = metrics.Start(Protocol, TransferDirection.Upload);
        var counted = new CountingReader(messages, transfer);
        var response = default(TResponse)!;
        await ObserveAsync(transfer, () => counted.FileName, context, async () => response = await continuation((IAsyncStreamReader<TRequest>)(object)counted, context));
        return response;
    }

    private Task ObserveAsync(TransferMetrics.Transfer transfer, string name, ServerCallContext context, Func<Task> call) =>
        ObserveAsync(transfer, () => name, context, call);

    private async Task ObserveAsync(TransferMetrics.Transfer transfer, Func<string> name, ServerCallContext context, Func<Task> call)
    {
        var status = StatusCode.Unknown;
        ErrorReason? reason = null;
        try
        {
            await call();
            status = StatusCode.OK;
        }
        catch (FileTransferException ex)
        {
            reason = ex.Reason;
            status = GrpcErrors.CodeFor(ex.Reason);
            throw;
        }
        catch (RpcException ex)
        {
            status = ex.StatusCode;
            throw;
        }
        catch (Exception) when (context.CancellationToken.IsCancellationRequested)
        {
            status = StatusCode.Cancelled;
            throw;
        }
        finally
        {
            var outcome = OutcomeOf(status, reason, context.CancellationToken.IsCancellationRequested);
            transfer.Complete(outcome);
            TransferLog.Completed(logger, transfer, name(), context.GetHttpContext().Request.Protocol, outcome, status.ToString(), reason);
        }
    }

    /// <summary>The outcome of a call: the core's reason decides where there is one, as for REST; else the status.</summary>
    internal static string OutcomeOf(StatusCode status, ErrorReason? reason, bool callCancelled) => status switch
    {
        StatusCode.OK => TransferOutcome.Success,
        _ when callCancelled => TransferOutcome.Aborted,
        _ when reason is { } known => TransferOutcome.Of(known),
        StatusCode.Cancelled or StatusCode.DeadlineExceeded => TransferOutcome.Aborted,
        StatusCode.InvalidArgument or StatusCode.NotFound or StatusCode.AlreadyExists or StatusCode.PermissionDenied
            or StatusCode.Unauthenticated or StatusCode.FailedPrecondition or StatusCode.OutOfRange
            or StatusCode.ResourceExhausted or StatusCode.DataLoss => TransferOutcome.Rejected,
        _ => TransferOutcome.Failed,
    };

    private sealed class CountingWriter(IServerStreamWriter<DownloadFileResponse> inner, TransferMetrics.Transfer transfer) : IServerStreamWriter<DownloadFileResponse>
    {
        public WriteOptions? WriteOptions
        {
            get => inner.WriteOptions;
            set => inner.WriteOptions = value;
        }

        public Task WriteAsync(DownloadFileResponse message) => WriteAsync(message, CancellationToken.None);

        public async Task WriteAsync(DownloadFileResponse message, CancellationToken cancellationToken)
        {
            // Read the length before writing: the buffer behind the chunk is reused once the write completes.
            var bytes = message.DataCase == DownloadFileResponse.DataOneofCase.Chunk ? message.Chunk.Length : 0;
            await inner.WriteAsync(message, cancellationToken);
            if (bytes > 0)
            {
                transfer.Add(bytes);
            }
        }
    }

    private sealed class CountingReader(IAsyncStreamReader<UploadFileRequest> inner, TransferMetrics.Transfer transfer) : IAsyncStreamReader<UploadFileRequest>
    {
        public string FileName { get; private set; } = "";

        public UploadFileRequest Current => inner.Current;

        public async Task<bool> MoveNext(CancellationToken cancellationToken)
        {
            if (!await inner.MoveNext(cancellationToken))
            {
                return false;
            }

            var message = inner.Current;
            if (message.DataCase == UploadFileRequest.DataOneofCase.Chunk)
            {
                transfer.Add(message.Chunk.Length);
            }
            else if (message.DataCase == UploadFileRequest.DataOneofCase.Metadata && FileName.Length == 0)
            {
                FileName = message.Metadata.FileName;
            }

            return true;
        }
    }
}
