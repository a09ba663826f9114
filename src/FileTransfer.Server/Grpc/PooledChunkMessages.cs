using System.Buffers;
using Google.Protobuf;
using Microsoft.Extensions.ObjectPool;

namespace FileTransfer.Protos.V1;

/// <summary>
/// A generated upload message extended with the pooled array its chunk may live in (see
/// UploadMessages): <see cref="UploadFileRequest"/> and <see cref="WriteUploadRequest"/>, read by the
/// same pooled marshaller.
/// </summary>
internal interface IPooledChunkMessage
{
    ByteString Chunk { get; set; }

    byte[]? RentedChunk { get; set; }
}

/// <summary>
/// Chunk messages are pooled too: an upload reads one per 32 KiB, and the message object was the
/// largest allocation left per chunk once the bytes themselves came from the array pool.
/// </summary>
internal static class PooledChunks
{
    internal static T ForRentedChunk<T>(byte[] rented, int length)
        where T : class, IPooledChunkMessage, new()
    {
        var message = Pool<T>.Messages.Get();
        message.Chunk = UnsafeByteOperations.UnsafeWrap(rented.AsMemory(0, length));
        message.RentedChunk = rented;
        return message;
    }

    /// <summary>
    /// Hands the chunk's pooled array back once its bytes are consumed, and the message with it:
    /// the caller must not touch the message afterwards (the next chunk read may be this object).
    /// It is left with an empty chunk until then, so nothing can read the returned array. Does
    /// nothing for a message the generated parser built.
    /// </summary>
    internal static void ReturnChunk<T>(this T message)
        where T : class, IPooledChunkMessage, new()
    {
        if (message.RentedChunk is { } rented)
        {
            message.RentedChunk = null;
            message.Chunk = ByteString.Empty;
            ArrayPool<byte>.Shared.Return(rented);
            Pool<T>.Messages.Return(message);
        }
    }

    private static class Pool<T>
        where T : class, new()
    {
        public static readonly ObjectPool<T> Messages =
            new DefaultObjectPool<T>(new DefaultPooledObjectPolicy<T>(), maximumRetained: 64);
    }
}

public sealed partial class UploadFileRequest : IPooledChunkMessage
{
    private byte[]? _rentedChunk;

    byte[]? IPooledChunkMessage.RentedChunk { get => _rentedChunk; set => _rentedChunk = value; }
}

public sealed partial class WriteUploadRequest : IPooledChunkMessage
{
    private byte[]? _rentedChunk;

    byte[]? IPooledChunkMessage.RentedChunk { get => _rentedChunk; set => _rentedChunk = value; }
}
