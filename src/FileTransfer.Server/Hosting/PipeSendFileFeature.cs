using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Storage;
using System.IO.Pipelines;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// Kestrel has no sendfile(2) path: its <see cref="IHttpResponseBodyFeature.SendFileAsync"/> reads
/// the file into a 16 KiB buffer and writes that buffer to the response stream, which copies it
/// again into the connection's pipe and flushes every 16 KiB. This feature reads from the file
/// straight into the pipe's own memory and flushes once per chunk of <c>chunkBytes</c>. Everything
/// else (headers, ranges, conditionals) stays with PhysicalFileResult, which calls this method
/// with the offset and count it has already validated (RFC 9110 14).
/// </summary>
internal sealed class PipeSendFileFeature(IHttpResponseBodyFeature inner, int chunkBytes) : IHttpResponseBodyFeature
{
    public Stream Stream => inner.Stream;

    /// <summary>Set by the transfer metrics: told the bytes of each flushed chunk.</summary>
    public TransferMetrics.Transfer? Progress { get; set; }

    public PipeWriter Writer => inner.Writer;

    public void DisableBuffering() => inner.DisableBuffering();

    public Task StartAsync(CancellationToken cancellationToken = default) => inner.StartAsync(cancellationToken);

    public Task CompleteAsync() => inner.CompleteAsync();

    public async Task SendFileAsync(string path, long offset, long? count, CancellationToken cancellationToken = default)
    {
        using var file = OpenedFile.Open(path, Path.GetFileName(path));
        // Same argument checks as ASP.NET Core's SendFileFallback.
        ArgumentOutOfRangeException.ThrowIfNegative(offset);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(offset, file.Length);
        var remaining = count ?? file.Length - offset;
        ArgumentOutOfRangeException.ThrowIfNegative(remaining, nameof(count));
        ArgumentOutOfRangeException.ThrowIfGreaterThan(remaining, file.Length - offset, nameof(count));

        if (remaining == 0)
        {
            // Like Kestrel's fallback: nothing to send starts nothing, so that whoever set the
            // status (416 with an empty range) can still shape the response.
            return;
        }

        await inner.StartAsync(cancellationToken);
        var writer = inner.Writer;
        while (remaining > 0)
        {
            // Fill the pipe's own blocks (pooled, pinned; see TransferMemoryPool) up to one chunk, then
            // flush once. A single large GetMemory would rent from ArrayPool instead, whose per-core
            // cache is too small for many connections each holding a MiB of unsent data.
            var unflushed = 0L;
            while (remaining > 0 && unflushed < chunkBytes)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var memory = writer.GetMemory();
                if (memory.Length > remaining)
                {
                    memory = memory[..(int)remaining];
                }

                await file.ReadExactlyAsync(memory, offset, cancellationToken);
                writer.Advance(memory.Length);
                offset += memory.Length;
                remaining -= memory.Length;
                unflushed += memory.Length;
            }

            var flushed = await writer.FlushAsync(cancellationToken);
            Progress?.Add((int)unflushed);
            if (flushed.IsCanceled)
            {
                throw new OperationCanceledException(cancellationToken);
            }

            if (flushed.IsCompleted)
            {
                // The client went away; Kestrel aborts the connection, nothing more to send.
                return;
            }
        }
    }

    /// <summary>Bytes between two flushes for a response over <paramref name="protocol"/> (HTTP/2 gets its own, larger size).</summary>
    internal static int ChunkBytesFor(string protocol, TransferTuningOptions options) =>
        HttpProtocol.IsHttp2(protocol) ? options.Http2SendFileChunkBytes : options.SendFileChunkBytes;

    /// <summary>Installs the feature on every request, wrapping the server's own body feature.</summary>
    public static void Use(WebApplication app)
    {
        var options = app.Services.GetRequiredService<IOptions<TransferTuningOptions>>().Value;
        if (!options.UsePipeSendFile)
        {
            return;
        }

        app.Use((context, next) =>
        {
            if (context.Features.Get<IHttpResponseBodyFeature>() is { } body)
            {
                context.Features.Set<IHttpResponseBodyFeature>(new PipeSendFileFeature(body, ChunkBytesFor(context.Request.Protocol, options)));
            }

            return next(context);
        });
    }
}
