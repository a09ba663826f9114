using System.Buffers;
using Google.Protobuf;
using Microsoft.Extensions.ObjectPool;

namespace FileTransfer.Protos.V1;

/// <summary>
/// The generated message, extended as <see cref="UploadFileRequest"/> is: a chunk message read by
/// the pooled marshaller lives in an array of the shared pool, and the message object in a pool of
/// its own, both handed back once the session has taken the bytes.
/// </summary>
public sealed partial class WriteUploadRequest
{
    private static readonly ObjectPool<WriteUploadRequest> Messages =
        new DefaultObjectPool<WriteUploadRequest>(new DefaultPooledObjectPolicy<WriteUploadRequest>(), maximumRetained: 64);

    private byte[]? _rentedChunk;

    internal static WriteUploadRequest ForRentedChunk(byte[] rented, int length)
    {
        var message = Messages.Get();
        message.Chunk = UnsafeByteOperations.UnsafeWrap(rented.AsMemory(0, length));
        message._rentedChunk = rented;
        return message;
    }

    /// <summary>
    /// Hands the chunk's pooled array back, and the message with it: the caller must not touch the
    /// message afterwards. Does nothing for a message the generated parser built.
    /// </summary>
    internal void ReturnChunk()
    {
        if (_rentedChunk is { } rented)
        {
            _rentedChunk = null;
            Chunk = ByteString.Empty;
            ArrayPool<byte>.Shared.Return(rented);
            Messages.Return(this);
        }
    }
}
