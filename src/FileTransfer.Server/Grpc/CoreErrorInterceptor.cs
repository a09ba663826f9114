using FileTransfer.Server.Storage;
using Grpc.Core;
using Grpc.Core.Interceptors;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// Turns the storage core's refusals into status codes for every FileService call, so that the
/// service calls the core without a try/catch per RPC and no mapping is written twice
/// (<see cref="GrpcErrors"/> holds the table). Anything else passes through: Grpc.AspNetCore logs an
/// unexpected exception and answers UNKNOWN without its message.
/// </summary>
internal sealed class CoreErrorInterceptor : Interceptor
{
    public override async Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        try
        {
            return await continuation(request, context);
        }
        catch (Exception ex) when (Map(ex) is { } mapped)
        {
            throw mapped;
        }
    }

    public override async Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(IAsyncStreamReader<TRequest> requestStream, ServerCallContext context, ClientStreamingServerMethod<TRequest, TResponse> continuation)
    {
        try
        {
            return await continuation(requestStream, context);
        }
        catch (Exception ex) when (Map(ex) is { } mapped)
        {
            throw mapped;
        }
    }

    public override async Task ServerStreamingServerHandler<TRequest, TResponse>(TRequest request, IServerStreamWriter<TResponse> responseStream, ServerCallContext context, ServerStreamingServerMethod<TRequest, TResponse> continuation)
    {
        try
        {
            await continuation(request, responseStream, context);
        }
        catch (Exception ex) when (Map(ex) is { } mapped)
        {
            throw mapped;
        }
    }

    private static RpcException? Map(Exception exception) => exception switch
    {
        UploadException upload => GrpcErrors.From(upload),
        InvalidListQueryException listing => GrpcErrors.InvalidArgument(GrpcErrors.Reasons.InvalidPageRequest, listing.Message),
        _ => null,
    };
}
