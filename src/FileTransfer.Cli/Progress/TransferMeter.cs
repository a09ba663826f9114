namespace FileTransfer.Cli.Progress;

/// <summary>
/// Bytes, rate and time left of one phase, measured by the tool itself: the rate is the average
/// since the phase started (a resumed prefix does not count), and it freezes when the phase
/// completes, so a finished line never shows a rate that keeps falling while the clock runs on.
/// </summary>
internal sealed class TransferMeter(TimeProvider time, long? total, long done)
{
    private long _startedAt = time.GetTimestamp();
    private long _base = done;
    private TimeSpan? _finishedAfter;

    public long Done { get; private set; } = done;

    public long? Total => total;

    public bool IsComplete => _finishedAfter is not null;

    /// <summary>Time since the phase started, or its duration once complete.</summary>
    public TimeSpan Elapsed => _finishedAfter ?? time.GetElapsedTime(_startedAt);

    /// <summary>Bytes per second since the phase started; 0 until some time has passed.</summary>
    public double Rate => Elapsed.TotalSeconds > 0 ? (Done - _base) / Elapsed.TotalSeconds : 0;

    /// <summary>Time left at the current rate; null when unknown, zero once complete.</summary>
    public TimeSpan? Remaining =>
        IsComplete ? TimeSpan.Zero
        : total is { } all && Rate > 0 ? TimeSpan.FromSeconds(Math.Ceiling(Math.Max(0, all - Done) / Rate))
        : null;

    public void Set(long done)
    {
        if (IsComplete)
        {
            return;
        }

        if (done < Done)
        {
            // The download started over (the file changed on the server): measure from here.
            _startedAt = time.GetTimestamp();
            _base = done;
        }

        Done = done;
    }

    public void Complete(long done)
    {
        if (!IsComplete)
        {
            Set(done);
            _finishedAfter = time.GetElapsedTime(_startedAt);
        }
    }
}
