using System.Buffers;
using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Copies a range of an opened version to the response. Kestrel has no sendfile(2) path, and its
/// own SendFileAsync reads the file into a 16 KiB buffer and writes that to the response stream,
/// which copies it again into the connection's pipe and flushes every 16 KiB. This reads from the
/// version straight into the pipe's own memory and flushes once per chunk
/// (<see cref="TransferTuningOptions.SendFileChunkBytes"/>, larger on HTTP/2, smaller when many
/// downloads share the <see cref="SendBudget"/>); the core counts the bytes for the transfer
/// metrics as they are read from the version. With <see cref="TransferTuningOptions.UsePipeSendFile"/>
/// off it copies through the response stream in 16 KiB pieces instead, as Kestrel's fallback does.
/// </summary>
internal static class OpenedFileSender
{
    private const int StreamCopyBytes = 16 * 1024;

    public static async Task SendAsync(HttpContext context, OpenedFile file, long offset, long count, TransferTuningOptions options, SendBudget budget)
    {
        if (count == 0)
        {
            // Like Kestrel's fallback: nothing to send starts nothing.
            return;
        }

        var cancellationToken = context.RequestAborted;
        using var sending = budget.Start(count);
        await using var source = await file.OpenReadAsync(offset, count, cancellationToken);
        if (options.UsePipeSendFile)
        {
            await CopyToPipeAsync(context, source, count, ChunkBytesFor(context.Request.Protocol, options), budget, cancellationToken);
        }
        else
        {
            await CopyToStreamAsync(context, source, cancellationToken);
        }
    }

    /// <summary>Bytes between two flushes for a response over <paramref name="protocol"/> (HTTP/2 gets its own, larger size).</summary>
    internal static int ChunkBytesFor(string protocol, TransferTuningOptions options) =>
        HttpProtocol.IsHttp2(protocol) ? options.Http2SendFileChunkBytes : options.SendFileChunkBytes;

    private static async Task CopyToPipeAsync(HttpContext context, Stream source, long remaining, int chunkBytes, SendBudget budget, CancellationToken cancellationToken)
    {
        await context.Response.StartAsync(cancellationToken);
        var writer = context.Response.BodyWriter;
        while (remaining > 0)
        {
            // Fill the pipe's own blocks (pooled, pinned; see TransferMemoryPool) up to one chunk, then
            // flush once. A single large GetMemory would rent from ArrayPool instead, whose per-core
            // cache is too small for many connections each holding a MiB of unsent data.
            var unflushed = 0;
            var flushBytes = budget.FlushBytes(chunkBytes);
            while (remaining > 0 && unflushed < flushBytes)
            {
                var memory = writer.GetMemory();
                if (memory.Length > remaining)
                {
                    memory = memory[..(int)remaining];
                }

                await source.ReadExactlyAsync(memory, cancellationToken);
                writer.Advance(memory.Length);
                remaining -= memory.Length;
                unflushed += memory.Length;
            }

            var flushed = await writer.FlushAsync(cancellationToken);
            if (flushed.IsCanceled)
            {
                throw new OperationCanceledException(cancellationToken);
            }

            if (flushed.IsCompleted)
            {
                // The client went away; Kestrel aborts the connection, nothing more to send.
                RequestTransfers.ClientLeft(context);
                return;
            }
        }
    }

    private static async Task CopyToStreamAsync(HttpContext context, Stream source, CancellationToken cancellationToken)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(StreamCopyBytes);
        try
        {
            int read;
            while ((read = await source.ReadAsync(buffer.AsMemory(0, StreamCopyBytes), cancellationToken)) > 0)
            {
                await context.Response.Body.WriteAsync(buffer.AsMemory(0, read), cancellationToken);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
