using System.Buffers;
using Google.Protobuf;

namespace FileTransfer.Protos.V1;

/// <summary>The generated message, extended with the pooled array its chunk may live in (see UploadMessages).</summary>
public sealed partial class UploadFileRequest
{
    private byte[]? _rentedChunk;

    internal static UploadFileRequest ForRentedChunk(byte[] rented, int length) => new()
    {
        Chunk = UnsafeByteOperations.UnsafeWrap(rented.AsMemory(0, length)),
        _rentedChunk = rented,
    };

    /// <summary>
    /// Hands the chunk's pooled array back once its bytes are consumed; the message is left with an
    /// empty chunk, so nothing can read the array after it was returned. Does nothing for a message
    /// the generated parser built.
    /// </summary>
    internal void ReturnChunk()
    {
        if (_rentedChunk is { } rented)
        {
            _rentedChunk = null;
            Chunk = ByteString.Empty;
            ArrayPool<byte>.Shared.Return(rented);
        }
    }
}
