using System.Buffers;
using FileTransfer.Protos.V1;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// Sends a range of an opened version as DownloadFile chunk messages: one pooled buffer rented
/// for the whole call, filled from the version's read stream a block of whole chunks at a time (at least <see cref="FlushBytes"/>),
/// each chunk wrapped without copying (<see cref="UnsafeByteOperations.UnsafeWrap(ReadOnlyMemory{byte})"/>),
/// never <c>ByteString.CopyFrom</c>, which would allocate the whole file again as garbage.
/// </summary>
internal static class FileChunks
{
    /// <summary>
    /// Bytes read per file read and written between two flushes. Every flush of an HTTP/2 stream
    /// that has to wait costs Kestrel an allocated flush state (about 0.8 KB measured), so a flush per
    /// 32 KiB message allocated 28 MB per GiB; one per 256 KiB is what REST's send-file does.
    /// </summary>
    public const int FlushBytes = 256 * 1024;

    private static readonly WriteOptions Buffered = new(WriteFlags.BufferHint);

    public static async Task SendAsync(Stream bytes, long count, int chunkSize, IServerStreamWriter<DownloadFileResponse> stream, CancellationToken cancellationToken)
    {
        var blockSize = chunkSize >= FlushBytes ? chunkSize : FlushBytes / chunkSize * chunkSize;
        var buffer = ArrayPool<byte>.Shared.Rent(blockSize);
        try
        {
            // One message object too: it only points at the buffer until it is serialized.
            var message = new DownloadFileResponse();
            while (count > 0)
            {
                var block = buffer.AsMemory(0, (int)Math.Min(blockSize, count));
                await bytes.ReadExactlyAsync(block, cancellationToken);
                for (var start = 0; start < block.Length; start += chunkSize)
                {
                    var chunk = block.Slice(start, Math.Min(chunkSize, block.Length - start));
                    message.Chunk = UnsafeByteOperations.UnsafeWrap(chunk);

                    // The block's last message flushes; the ones before it are only buffered
                    // (BufferHint). Either way Grpc.AspNetCore has serialized the message into the
                    // response pipe (a copy) when the write completes, so the buffer may be refilled
                    // after the block. The SHA-256 tests of every download would fail otherwise.
                    stream.WriteOptions = start + chunk.Length < block.Length ? Buffered : null;
                    await stream.WriteAsync(message, cancellationToken);
                }

                count -= block.Length;
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
