using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Rest;

/// <summary>
/// How many bytes a download puts into its connection between two flushes: the configured chunk
/// (<see cref="TransferTuningOptions.SendFileChunkBytes"/>, <see cref="TransferTuningOptions.Http2SendFileChunkBytes"/>)
/// while few downloads run, shrinking as more run at once, so that together they hold at most about
/// <see cref="TransferTuningOptions.SendBufferBudgetBytes"/> of unflushed chunks (never less than
/// <see cref="MinimumChunkBytes"/> each). A lone download keeps its large chunks (fewer flushes, less
/// CPU per GiB); 64 at once no longer hold 64 of them (docs/performance-notes.md, "Server memory").
/// </summary>
internal sealed class SendBuffers(IOptions<TransferTuningOptions> options)
{
    /// <summary>The smallest chunk a crowd of downloads is cut down to: two of the pool's blocks.</summary>
    public const int MinimumChunkBytes = 64 * 1024;

    private int _active;

    /// <summary>Counts one more download sending; dispose the result when it ends.</summary>
    public Sending Start() => new(this);

    /// <summary>The chunk for a response over <paramref name="protocol"/> now, with the downloads that are sending now.</summary>
    public int ChunkBytesFor(string protocol)
    {
        var settings = options.Value;
        var configured = OpenedFileSender.ChunkBytesFor(protocol, settings);
        if (settings.SendBufferBudgetBytes == 0)
        {
            return configured;
        }

        var share = settings.SendBufferBudgetBytes / Math.Max(1, Volatile.Read(ref _active));
        return (int)Math.Clamp(share, Math.Min(MinimumChunkBytes, configured), configured);
    }

    /// <summary>One download while it sends.</summary>
    public readonly struct Sending : IDisposable
    {
        private readonly SendBuffers _owner;

        public Sending(SendBuffers owner)
        {
            _owner = owner;
            Interlocked.Increment(ref owner._active);
        }

        public void Dispose() => Interlocked.Decrement(ref _owner._active);
    }
}
