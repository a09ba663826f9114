using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// A request message that protobuf cannot parse is the client's error. Thrown from a marshaller,
/// the parse error reaches Grpc.AspNetCore as an unexpected exception: it answers UNKNOWN and logs
/// the exception twice, with its stack trace (about 4.9 KB of log per request), before any
/// interceptor runs. So the guarded marshaller returns a stand-in instead, one per message type,
/// and <see cref="MalformedMessageInterceptor"/> answers INVALID_ARGUMENT for it before the service
/// sees it.
/// </summary>
internal static class MalformedMessages
{
    /// <summary><paramref name="inner"/>, except that a message it cannot parse becomes <see cref="StandIn{T}.Instance"/>.</summary>
    public static Marshaller<T> Guard<T>(Marshaller<T> inner)
        where T : class =>
        Marshallers.Create(inner.ContextualSerializer, context =>
        {
            try
            {
                return inner.ContextualDeserializer(context);
            }
            catch (InvalidProtocolBufferException)
            {
                return StandIn<T>.Instance;
            }
        });

    public static bool IsStandIn<T>(T message)
        where T : class =>
        ReferenceEquals(message, StandIn<T>.Instance);

    public static RpcException Refusal<T>() =>
        GrpcErrors.Create(
            ErrorReason.MalformedMessage,
            $"The request message is not a valid {typeof(T).Name}: protobuf could not parse it.");

    /// <summary>The one instance of <typeparamref name="T"/> that stands for "did not parse"; never handed to the service.</summary>
    private static class StandIn<T>
        where T : class
    {
        public static readonly T Instance = Activator.CreateInstance<T>();
    }
}
