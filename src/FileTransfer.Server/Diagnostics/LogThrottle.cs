namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// At most one log line per interval for an event an attacker can repeat at will (a refused
/// connection, a failing accept), with the count of the ones left out since: logging each one
/// would hand the attacker a second resource to exhaust.
/// </summary>
internal sealed class LogThrottle(TimeSpan interval)
{
    private long _nextTicks;
    private long _suppressed;

    /// <summary>True when this occurrence should be logged; <paramref name="suppressed"/> is how many were not since the last.</summary>
    public bool ShouldLog(out long suppressed)
    {
        var now = Environment.TickCount64;
        var next = Interlocked.Read(ref _nextTicks);
        if (now >= next && Interlocked.CompareExchange(ref _nextTicks, now + (long)interval.TotalMilliseconds, next) == next)
        {
            suppressed = Interlocked.Exchange(ref _suppressed, 0);
            return true;
        }

        Interlocked.Increment(ref _suppressed);
        suppressed = 0;
        return false;
    }

    /// <summary>How many were not logged since the last report, and starts counting afresh.</summary>
    public long TakeSuppressed() => Interlocked.Exchange(ref _suppressed, 0);
}
