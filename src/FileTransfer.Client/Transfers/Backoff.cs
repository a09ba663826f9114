namespace FileTransfer.Client.Transfers;

/// <summary>Bounded retries: <c>MaxRetries</c> failures in a row without progress, waiting twice as long each time (up to 10 s).</summary>
internal sealed class Backoff(int maxRetries, TimeSpan firstDelay)
{
    private static readonly TimeSpan MaxDelay = TimeSpan.FromSeconds(10);
    private int _failuresInARow;

    /// <summary>Retries so far, in total.</summary>
    public int Retries { get; private set; }

    /// <summary>Bytes arrived: the next failure starts the count again.</summary>
    public void Progressed() => _failuresInARow = 0;

    /// <summary>Waits before the next attempt; false when the retries are used up.</summary>
    public async Task<bool> WaitAsync(CancellationToken cancellationToken)
    {
        if (_failuresInARow >= maxRetries)
        {
            return false;
        }

        var delay = TimeSpan.FromTicks(Math.Min(MaxDelay.Ticks, firstDelay.Ticks << Math.Min(_failuresInARow, 16)));
        _failuresInARow++;
        Retries++;
        await Task.Delay(delay, cancellationToken);
        return true;
    }
}
