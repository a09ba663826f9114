using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Rest;

/// <summary>How file bodies are copied to the connection, bound from the <c>Transfer</c> configuration section.</summary>
public sealed class TransferTuningOptions
{
    public const string SectionName = "Transfer";

    /// <summary>
    /// Copy file responses by reading straight into the response's PipeWriter, flushing every
    /// <see cref="SendFileChunkBytes"/> (one copy less than Kestrel's fallback, which reads
    /// 16 KiB pieces into a buffer, then writes and flushes that buffer). Default true.
    /// </summary>
    public bool UsePipeSendFile { get; set; } = true;

    /// <summary>Bytes read from the file into an HTTP/1.1 response between two flushes (default 256 KiB).</summary>
    [Range(4 * 1024, 16 * 1024 * 1024)]
    public int SendFileChunkBytes { get; set; } = 256 * 1024;

    /// <summary>
    /// The same for HTTP/2 responses (default 1 MiB). Every HTTP/2 flush that has to wait allocates
    /// Kestrel's flush state (~0.7 KB), so fewer, larger flushes: 2.9 -> 1.7-2.1 MB allocated per GiB
    /// at the same or better throughput; over HTTP/1.1 the same size measured no gain
    /// (benchmarks/RESULTS.md, runs T3, T3b).
    /// </summary>
    [Range(4 * 1024, 16 * 1024 * 1024)]
    public int Http2SendFileChunkBytes { get; set; } = 1024 * 1024;

    /// <summary>
    /// Unflushed response bytes all downloads together may hold (default 4 MiB): past
    /// <c>SendBudgetBytes / chunk size</c> concurrent downloads, each flushes after its equal share
    /// instead of its chunk (at least 64 KiB). See <c>Diagnostics/SendBudget</c>.
    /// </summary>
    [Range(1024 * 1024, 1024 * 1024 * 1024)]
    public int SendBudgetBytes { get; set; } = 4 * 1024 * 1024;

    /// <summary>
    /// Size of the blocks Kestrel's connections buffer in (default 32 KiB; Kestrel's own pool uses
    /// 4 KiB). See the host's <c>TransferMemoryPool</c> for why.
    /// </summary>
    [Range(4 * 1024, 1024 * 1024)]
    public int MemoryPoolBlockBytes { get; set; } = 32 * 1024;
}

/// <summary>
/// Checks the attributes of <see cref="TransferTuningOptions"/> with code generated at build time, not by reflection
/// at start as ValidateDataAnnotations would (docs/performance-notes.md, "Loading less at start").
/// </summary>
[OptionsValidator]
internal sealed partial class TransferTuningOptionsAttributes : IValidateOptions<TransferTuningOptions>;
