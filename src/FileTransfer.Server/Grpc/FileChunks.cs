using System.Buffers;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Diagnostics;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// Sends a range of an opened version as DownloadFile chunk messages: one pooled buffer rented
/// for the whole call, filled from the version's read stream a block of whole chunks at a time,
/// each chunk wrapped without copying (<see cref="UnsafeByteOperations.UnsafeWrap(ReadOnlyMemory{byte})"/>),
/// never <c>ByteString.CopyFrom</c>, which would allocate the whole file again as garbage.
/// </summary>
internal static class FileChunks
{
    /// <summary>
    /// Bytes written between two flushes while the <see cref="SendBudget"/> allows it. Every flush of
    /// an HTTP/2 stream that has to wait costs Kestrel an allocated flush state (about 0.8 KB measured),
    /// so a flush per 32 KiB message allocated 28 MB per GiB; one per 256 KiB is what REST's send-file does.
    /// </summary>
    public const int FlushBytes = 256 * 1024;

    /// <summary>
    /// Bytes read from the version at a time (whole chunks, at least one). Reads are decoupled from
    /// flushes: each message is serialized into the response pipe when its write completes, so the
    /// buffer is refilled while the flush still gathers. 64 KiB keeps the buffer below the large
    /// object heap's 85,000 bytes, so buffers that ArrayPool.Shared does not keep (many downloads at
    /// once) are short-lived garbage, not large objects that only a full collection frees; and a local
    /// read of this size is a pread on the calling thread (Storage.Local).
    /// </summary>
    public const int ReadBytes = 64 * 1024;

    private static readonly WriteOptions Buffered = new(WriteFlags.BufferHint);

    public static async Task SendAsync(
        Stream bytes, long count, int chunkSize, IServerStreamWriter<DownloadFileResponse> stream, SendBudget budget, CancellationToken cancellationToken)
    {
        using var sending = budget.Start(count);
        var blockSize = chunkSize >= ReadBytes ? chunkSize : ReadBytes / chunkSize * chunkSize;
        var buffer = ArrayPool<byte>.Shared.Rent(blockSize);
        try
        {
            // One message object too: it only points at the buffer until it is serialized.
            var message = new DownloadFileResponse();
            var unflushed = 0;
            var flushBytes = budget.FlushBytes(FlushBytes);
            while (count > 0)
            {
                var block = buffer.AsMemory(0, (int)Math.Min(blockSize, count));
                await bytes.ReadExactlyAsync(block, cancellationToken);
                count -= block.Length;
                for (var start = 0; start < block.Length; start += chunkSize)
                {
                    var chunk = block.Slice(start, Math.Min(chunkSize, block.Length - start));
                    message.Chunk = UnsafeByteOperations.UnsafeWrap(chunk);
                    unflushed += chunk.Length;

                    // A message that completes the flush size, or the last one, flushes; the others are
                    // only buffered (BufferHint). Either way Grpc.AspNetCore has serialized the message
                    // into the response pipe (a copy) when the write completes, so the buffer may be
                    // refilled after the block. The SHA-256 tests of every download would fail otherwise.
                    var flush = unflushed >= flushBytes || (count == 0 && start + chunk.Length == block.Length);
                    stream.WriteOptions = flush ? null : Buffered;
                    await stream.WriteAsync(message, cancellationToken);
                    if (flush)
                    {
                        unflushed = 0;
                        flushBytes = budget.FlushBytes(FlushBytes);
                    }
                }
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
