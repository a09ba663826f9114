using System.Buffers;
using Google.Protobuf;
using Microsoft.Extensions.ObjectPool;

namespace FileTransfer.Protos.V1;

/// <summary>
/// The generated message, extended with the pooled array its chunk may live in (see UploadMessages).
/// Chunk messages are pooled too: an upload reads one per 32 KiB, and the message object was the
/// largest allocation left per chunk once the bytes themselves came from the array pool.
/// </summary>
public sealed partial class UploadFileRequest
{
    private static readonly ObjectPool<UploadFileRequest> Messages =
        new DefaultObjectPool<UploadFileRequest>(new DefaultPooledObjectPolicy<UploadFileRequest>(), maximumRetained: 64);

    private byte[]? _rentedChunk;

    internal static UploadFileRequest ForRentedChunk(byte[] rented, int length)
    {
        var message = Messages.Get();
        message.Chunk = UnsafeByteOperations.UnsafeWrap(rented.AsMemory(0, length));
        message._rentedChunk = rented;
        return message;
    }

    /// <summary>
    /// Hands the chunk's pooled array back once its bytes are consumed, and the message with it:
    /// the caller must not touch the message afterwards (the next chunk read may be this object).
    /// It is left with an empty chunk until then, so nothing can read the returned array. Does
    /// nothing for a message the generated parser built.
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
