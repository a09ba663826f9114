using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Grpc.Core;
using Grpc.Core.Interceptors;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// Turns what a FileService call throws into its status, so that the service calls the core without
/// a try/catch per RPC and no mapping is written twice (<see cref="GrpcErrors"/> holds the table; the
/// REST twin is the REST error filter): a core refusal, and a read the storage failed
/// (<see cref="StorageReadException"/>: a version an object store no longer holds, or a store that
/// stopped answering), become their status with ErrorInfo. An exception
/// the server did not foresee is logged whole and answered UNKNOWN (the status Grpc.AspNetCore gives
/// it) with the reason INTERNAL_ERROR and nothing of the exception. A status already made (an
/// <see cref="RpcException"/>) and a call the client cancelled or let expire pass through.
/// </summary>
internal sealed partial class CoreErrorInterceptor(ILogger<CoreErrorInterceptor> logger) : Interceptor
{
    public override async Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        try
        {
            return await continuation(request, context);
        }
        catch (Exception ex) when (StatusFor(ex, context) is { } status)
        {
            throw status;
        }
    }

    public override async Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(IAsyncStreamReader<TRequest> requestStream, ServerCallContext context, ClientStreamingServerMethod<TRequest, TResponse> continuation)
    {
        try
        {
            return await continuation(requestStream, context);
        }
        catch (Exception ex) when (StatusFor(ex, context) is { } status)
        {
            throw status;
        }
    }

    public override async Task ServerStreamingServerHandler<TRequest, TResponse>(TRequest request, IServerStreamWriter<TResponse> responseStream, ServerCallContext context, ServerStreamingServerMethod<TRequest, TResponse> continuation)
    {
        try
        {
            await continuation(request, responseStream, context);
        }
        catch (Exception ex) when (StatusFor(ex, context) is { } status)
        {
            throw status;
        }
    }

    // Null: let it pass (already a status, or the client's own cancellation or deadline).
    private RpcException? StatusFor(Exception exception, ServerCallContext context)
    {
        switch (exception)
        {
            case FileTransferException refused:
                return GrpcErrors.From(refused);
            case StorageReadException failed:
                return GrpcErrors.From(failed.ToRefusal());
            case RpcException:
                return null;
            case OperationCanceledException or IOException when context.CancellationToken.IsCancellationRequested:
                return null;
            default:
                LogUnexpected(logger, context.Method, exception);
                return GrpcErrors.Create(ErrorReason.InternalError, ProblemExceptionHandler.InternalErrorDetail);
        }
    }

    [LoggerMessage(EventId = 280, Level = LogLevel.Error, Message = "{Method} failed with an exception the server did not foresee; answered UNKNOWN with the reason INTERNAL_ERROR")]
    private static partial void LogUnexpected(ILogger logger, string method, Exception exception);
}
