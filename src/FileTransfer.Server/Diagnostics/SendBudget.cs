namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// How many bytes a download may write before it flushes, shared by every download the process
/// sends (REST over either HTTP version, and gRPC). What a download wrote and has not flushed sits in
/// the connection's pinned blocks until the flush, so the unflushed bytes of all downloads are memory
/// the process holds at once: 64 concurrent HTTP/2 downloads with a 1 MiB flush each held 64 MiB of it
/// (docs/performance-notes.md, "the 64-concurrent peak"). A download alone, or one of a few, keeps the
/// flush size its protocol was measured fastest with; past that, each gets an equal share of
/// <paramref name="totalBytes"/> (<c>Transfer:SendBudgetBytes</c>), never less than <see cref="MinFlushBytes"/>.
/// </summary>
internal sealed class SendBudget(int totalBytes)
{
    /// <summary>
    /// The smallest share: two blocks of the connection memory pool, one gRPC read. Smaller, a 64 KiB
    /// response among many HTTP/2 streams was split into two flushes (0.91x the requests/s measured).
    /// </summary>
    public const int MinFlushBytes = 64 * 1024;

    private int _sending;

    /// <summary>Downloads sending now.</summary>
    public int Sending => Volatile.Read(ref _sending);

    /// <summary>
    /// Counts a download of <paramref name="bytes"/> as sending until the returned value is disposed.
    /// One that fits in the smallest share is sent in one flush whatever the others do, so it is not
    /// counted: a small file's GET then writes no counter that every core shares.
    /// </summary>
    public Lease Start(long bytes)
    {
        if (bytes <= MinFlushBytes)
        {
            return default;
        }

        Interlocked.Increment(ref _sending);
        return new Lease(this);
    }

    /// <summary>
    /// Bytes to write before the next flush: <paramref name="preferred"/> (the protocol's own size)
    /// while the downloads' shares allow it, else the share. Asked before every flush, so a long
    /// download follows the others as they start and end.
    /// </summary>
    public int FlushBytes(int preferred)
    {
        var share = totalBytes / Math.Max(1, Sending);
        return Math.Clamp(share, Math.Min(MinFlushBytes, preferred), preferred);
    }

    /// <summary>One download's place in the count (none for a download that was not counted).</summary>
    public readonly struct Lease(SendBudget? budget) : IDisposable
    {
        public void Dispose()
        {
            if (budget is not null)
            {
                Interlocked.Decrement(ref budget._sending);
            }
        }
    }
}
