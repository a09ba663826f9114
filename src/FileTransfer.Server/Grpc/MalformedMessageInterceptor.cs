using Grpc.Core;
using Grpc.Core.Interceptors;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// Answers INVALID_ARGUMENT for a request message that did not parse (<see cref="MalformedMessages"/>),
/// in every kind of call: the request of a unary or server-streaming call, or any message of a
/// client-streaming one. The outermost interceptor, so a message that never parsed is not a transfer.
/// </summary>
internal sealed class MalformedMessageInterceptor : Interceptor
{
    public override Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation) =>
        MalformedMessages.IsStandIn(request) ? throw MalformedMessages.Refusal<TRequest>() : continuation(request, context);

    public override Task ServerStreamingServerHandler<TRequest, TResponse>(TRequest request, IServerStreamWriter<TResponse> responseStream, ServerCallContext context, ServerStreamingServerMethod<TRequest, TResponse> continuation) =>
        MalformedMessages.IsStandIn(request) ? throw MalformedMessages.Refusal<TRequest>() : continuation(request, responseStream, context);

    public override Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(IAsyncStreamReader<TRequest> requestStream, ServerCallContext context, ClientStreamingServerMethod<TRequest, TResponse> continuation) =>
        continuation(new CheckedReader<TRequest>(requestStream), context);

    public override Task DuplexStreamingServerHandler<TRequest, TResponse>(IAsyncStreamReader<TRequest> requestStream, IServerStreamWriter<TResponse> responseStream, ServerCallContext context, DuplexStreamingServerMethod<TRequest, TResponse> continuation) =>
        continuation(new CheckedReader<TRequest>(requestStream), responseStream, context);

    private sealed class CheckedReader<T>(IAsyncStreamReader<T> inner) : IAsyncStreamReader<T>
        where T : class
    {
        public T Current => inner.Current;

        public async Task<bool> MoveNext(CancellationToken cancellationToken)
        {
            if (!await inner.MoveNext(cancellationToken))
            {
                return false;
            }

            return MalformedMessages.IsStandIn(inner.Current) ? throw MalformedMessages.Refusal<T>() : true;
        }
    }
}
