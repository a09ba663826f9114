using System.Buffers;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Storage;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// Sends a byte range of an open file as DownloadFile chunk messages: one pooled buffer rented
/// for the whole call, each chunk read into it and wrapped without copying
/// (<see cref="UnsafeByteOperations.UnsafeWrap(ReadOnlyMemory{byte})"/>), never
/// <c>ByteString.CopyFrom</c>, which would allocate the whole file again as garbage.
/// </summary>
internal static class FileChunks
{
    public static async Task SendAsync(OpenedFile file, long offset, long count, int chunkSize, IServerStreamWriter<DownloadFileResponse> stream, CancellationToken cancellationToken)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(chunkSize);
        try
        {
            // One message object too: it only points at the buffer until it is serialized.
            var message = new DownloadFileResponse();
            while (count > 0)
            {
                var chunk = buffer.AsMemory(0, (int)Math.Min(chunkSize, count));
                await file.ReadExactlyAsync(chunk, offset, cancellationToken);
                message.Chunk = UnsafeByteOperations.UnsafeWrap(chunk);

                // Reusing the buffer for the next chunk is safe once this completes: Grpc.AspNetCore
                // serializes the message into the response pipe (a copy) before the write task
                // finishes, and writes one message at a time. The SHA-256 tests of every download
                // would fail if a chunk were sent after being overwritten.
                await stream.WriteAsync(message, cancellationToken);
                offset += chunk.Length;
                count -= chunk.Length;
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
