using FileTransfer.Protos.V1;
using Grpc.Core;
using Grpc.Core.Interceptors;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// The gRPC twin of <see cref="RestTransferObserver"/>: counts the file bytes of DownloadFile and
/// UploadFile calls as they move, and ends each with one metrics update and one log line
/// (protocol "grpc"). A call the client cancelled, let pass its deadline, or cut off is aborted.
/// </summary>
internal sealed partial class GrpcTransferObserver(TransferMetrics metrics, ILogger<GrpcTransferObserver> logger) : Interceptor
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
        try
        {
            await call();
            status = StatusCode.OK;
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
            var outcome = OutcomeOf(status, context.CancellationToken.IsCancellationRequested);
            transfer.Complete(outcome);
            LogTransfer(logger, transfer.Direction, name(), Protocol, context.GetHttpContext().Request.Protocol, transfer.Bytes,
                (long)transfer.Elapsed.TotalMilliseconds, outcome, status);
        }
    }

    /// <summary>The REST outcomes for gRPC statuses: the client's errors are rejected, the server's failed.</summary>
    internal static string OutcomeOf(StatusCode status, bool callCancelled) => status switch
    {
        StatusCode.OK => TransferOutcome.Success,
        _ when callCancelled => TransferOutcome.Aborted,
        StatusCode.Cancelled or StatusCode.DeadlineExceeded => TransferOutcome.Aborted,
        StatusCode.InvalidArgument or StatusCode.NotFound or StatusCode.AlreadyExists or StatusCode.PermissionDenied
            or StatusCode.Unauthenticated or StatusCode.FailedPrecondition or StatusCode.OutOfRange
            or StatusCode.ResourceExhausted or StatusCode.DataLoss => TransferOutcome.Rejected,
        _ => TransferOutcome.Failed,
    };

    // Event 100 like the REST line, with the gRPC status where REST has the HTTP status code.
    [LoggerMessage(EventId = 100, Level = LogLevel.Information,
        Message = "Transfer {Direction} {Name} over {Protocol} ({HttpProtocol}): {Bytes} bytes in {DurationMs} ms, {Outcome} ({GrpcStatus})")]
    private static partial void LogTransfer(
        ILogger logger, string direction, string name, string protocol, string httpProtocol, long bytes, long durationMs, string outcome, StatusCode grpcStatus);

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
