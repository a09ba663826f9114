using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Grpc.Core;
using Grpc.Core.Interceptors;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// Turns the core's refusals into status codes for every FileService call, so that the service
/// calls the core without a try/catch per RPC and no mapping is written twice
/// (<see cref="GrpcErrors"/> holds the table; the REST twin is the REST error filter). A read of a
/// version an object store no longer holds (<see cref="VersionGoneException"/>) is one too. Anything else
/// passes through: Grpc.AspNetCore logs an unexpected exception and answers UNKNOWN without its message.
/// </summary>
internal sealed class CoreErrorInterceptor : Interceptor
{
    public override async Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        try
        {
            return await continuation(request, context);
        }
        catch (FileTransferException ex)
        {
            throw Refused(context, ex);
        }
        catch (VersionGoneException ex)
        {
            throw Refused(context, ex.ToRefusal());
        }
    }

    public override async Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(IAsyncStreamReader<TRequest> requestStream, ServerCallContext context, ClientStreamingServerMethod<TRequest, TResponse> continuation)
    {
        try
        {
            return await continuation(requestStream, context);
        }
        catch (FileTransferException ex)
        {
            throw Refused(context, ex);
        }
        catch (VersionGoneException ex)
        {
            throw Refused(context, ex.ToRefusal());
        }
    }

    public override async Task ServerStreamingServerHandler<TRequest, TResponse>(TRequest request, IServerStreamWriter<TResponse> responseStream, ServerCallContext context, ServerStreamingServerMethod<TRequest, TResponse> continuation)
    {
        try
        {
            await continuation(request, responseStream, context);
        }
        catch (FileTransferException ex)
        {
            throw Refused(context, ex);
        }
        catch (VersionGoneException ex)
        {
            throw Refused(context, ex.ToRefusal());
        }
    }

    // The reason is also remembered on the call, as REST's error filter does, for its transfers' outcome and log line.
    private static RpcException Refused(ServerCallContext context, FileTransferException refused)
    {
        HttpErrors.Remember(context.GetHttpContext(), refused.Reason);
        return GrpcErrors.From(refused);
    }
}
