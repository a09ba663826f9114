namespace FileTransfer.Server.Security;

/// <summary>
/// One client's share of the limits: how many of its requests are running (at most
/// <c>RateLimit:ConcurrentTransfers</c>) and a token bucket of <c>RateLimit:Burst</c> tokens that
/// refills at <c>RateLimit:PermitsPerSecond</c>. Both change by compare-and-swap, without a lock,
/// and the bucket needs no timer: its whole state is the time at which it will be full again (the
/// token bucket written as the generic cell rate algorithm of ITU-T I.371), so it refills
/// continuously, as a function of the clock.
/// </summary>
internal sealed class ClientBudget(BudgetLimits limits)
{
    // What _running holds once the budget is evicted: no request may start on it any more.
    private const int Evicted = int.MinValue;

    private int _running;

    // When the bucket is full again, in nanoseconds of the limiter's clock: at or before now, it is
    // full. Each token taken moves it one interval later, starting from now if it was in the past.
    private long _fullAt;

    /// <summary>
    /// Starts a request if both limits allow it. The concurrency slot is taken first and the token
    /// second, as the chained limiters did, so a client at its concurrency limit spends no token.
    /// </summary>
    /// <param name="now">The limiter's clock, in nanoseconds.</param>
    /// <param name="wait">When refused for want of a token: how long until the next one, in nanoseconds.</param>
    public BudgetAnswer TryStart(long now, out long wait)
    {
        wait = 0;
        int running;
        do
        {
            running = Volatile.Read(ref _running);
            if (running == Evicted)
            {
                return BudgetAnswer.Evicted;
            }

            if (running >= limits.ConcurrentTransfers)
            {
                return BudgetAnswer.TooManyRunning;
            }
        }
        while (Interlocked.CompareExchange(ref _running, running + 1, running) != running);

        if (TryTakeToken(now, out wait))
        {
            return BudgetAnswer.Started;
        }

        Interlocked.Decrement(ref _running);
        return BudgetAnswer.TooFast;
    }

    /// <summary>A request started by <see cref="TryStart"/> has ended: its slot is free again.</summary>
    public void End() => Interlocked.Decrement(ref _running);

    /// <summary>
    /// Marks the budget evicted if nothing has run on it and its bucket has been full for
    /// <paramref name="idle"/> nanoseconds: it is then the same as a new one, and can be dropped. A
    /// request that finds it evicted looks its client up again.
    /// </summary>
    public bool TryEvict(long now, long idle)
    {
        if (Volatile.Read(ref _fullAt) > now - idle || Interlocked.CompareExchange(ref _running, Evicted, 0) != 0)
        {
            return false;
        }

        // A token is taken only by a request holding a slot, so from here on _fullAt stays still; but
        // a request may have started, taken one and ended between the first look and the exchange.
        if (Volatile.Read(ref _fullAt) > now - idle)
        {
            Volatile.Write(ref _running, 0);
            return false;
        }

        return true;
    }

    private bool TryTakeToken(long now, out long wait)
    {
        long fullAt, next;
        do
        {
            fullAt = Volatile.Read(ref _fullAt);
            next = Math.Max(fullAt, now) + limits.Interval;

            // The bucket holds Burst tokens: full at now + Burst intervals would be one too many.
            wait = next - now - limits.BurstWindow;
            if (wait > 0)
            {
                return false;
            }
        }
        while (Interlocked.CompareExchange(ref _fullAt, next, fullAt) != fullAt);

        return true;
    }
}

/// <summary>What <see cref="ClientBudget.TryStart"/> decided.</summary>
internal enum BudgetAnswer
{
    Started,
    TooManyRunning,
    TooFast,
    Evicted,
}

/// <summary><see cref="RateLimitOptions"/> in the budget's terms, computed once per limiter.</summary>
/// <param name="ConcurrentTransfers">Requests a client may have running.</param>
/// <param name="Interval">Nanoseconds per token: 10^9 / PermitsPerSecond, rounded (exact for every rate that divides 10^9, within 0.05 % at the largest, 1 000 000).</param>
/// <param name="BurstWindow">Burst intervals: how far ahead of now the bucket's "full again" may run.</param>
internal sealed record BudgetLimits(int ConcurrentTransfers, long Interval, long BurstWindow)
{
    public static BudgetLimits From(RateLimitOptions options)
    {
        var interval = (long)Math.Round(1e9 / options.PermitsPerSecond);
        return new(options.ConcurrentTransfers, interval, interval * options.Burst);
    }
}
