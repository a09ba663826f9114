using System.Buffers;
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
        where T : class
    {
        var standIn = StandIn<T>.MadeBy(inner);
        return Marshallers.Create(inner.ContextualSerializer, context =>
        {
            try
            {
                return inner.ContextualDeserializer(context);
            }
            catch (InvalidProtocolBufferException)
            {
                return standIn;
            }
        });
    }

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
        private static T? _instance;

        /// <summary>Null until a marshaller of <typeparamref name="T"/> is guarded (at bind time).</summary>
        public static T? Instance => _instance;

        // The message the marshaller reads from no bytes: a new instance, every field at its default
        // (a protobuf parser never hands out one it made before). Not Activator.CreateInstance<T>(),
        // which Native AOT cannot keep for a T without a constructor constraint, and T has none: it
        // comes from the generic methods of ServiceBinderBase and Interceptor. Of two marshallers of
        // one type, the first one's stays.
        public static T MadeBy(Marshaller<T> marshaller)
        {
            var made = marshaller.ContextualDeserializer(EmptyPayload.Instance);
            return Interlocked.CompareExchange(ref _instance, made, null) ?? made;
        }
    }

    private sealed class EmptyPayload : DeserializationContext
    {
        public static readonly EmptyPayload Instance = new();

        public override int PayloadLength => 0;

        public override byte[] PayloadAsNewBuffer() => [];

        public override ReadOnlySequence<byte> PayloadAsReadOnlySequence() => ReadOnlySequence<byte>.Empty;
    }
}
