using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Storage.S3;

/// <summary>
/// Clean-up that the store could not take while it failed (aborting a multipart upload, releasing a
/// lease, saving an interrupted upload session), tried again once it answers: every
/// <see cref="FirstRetry"/>, doubling up to <see cref="LongestRetry"/>, for up to <see cref="GiveUpAfter"/>,
/// after which the abandoned-upload sweep and the leases' expiry take over. Without it an outage left
/// each cut write's lease standing for a lease's duration (its own client refused as busy) and its
/// multipart upload until the daily sweep. One entry per key: queuing a key again replaces its work.
/// </summary>
internal sealed class CleanupQueue : IDisposable
{
    /// <summary>Most entries kept: past it, new clean-up is left to the sweep and the leases' expiry.</summary>
    internal const int MaxEntries = 10_000;

    private readonly ConcurrentDictionary<string, Entry> _work = new(StringComparer.Ordinal);
    private readonly CancellationTokenSource _stop = new();
    private readonly CancellationToken _stopping;
    private readonly ILogger _logger;
    private int _running;

    public CleanupQueue(ILogger logger)
    {
        _logger = logger;

        // Kept apart from its source: work queued while the process stops must not touch a disposed one.
        _stopping = _stop.Token;
    }

    internal TimeSpan FirstRetry { get; set; } = TimeSpan.FromMilliseconds(500);

    internal TimeSpan LongestRetry { get; set; } = TimeSpan.FromSeconds(5);

    internal TimeSpan GiveUpAfter { get; set; } = TimeSpan.FromHours(1);

    /// <summary>Entries waiting for the store.</summary>
    public int Count => _work.Count;

    /// <summary>
    /// Queues <paramref name="work"/> under <paramref name="key"/>. The work throws the store's
    /// unavailability (<see cref="S3Failures.IsUnavailable"/>) to be tried again; anything else ends it.
    /// </summary>
    public void Add(string key, Func<Task> work)
    {
        if (_work.Count >= MaxEntries && !_work.ContainsKey(key))
        {
            Log.CleanupDropped(_logger, key);
            return;
        }

        _work[key] = new Entry(work, DateTimeOffset.UtcNow);
        if (Interlocked.Exchange(ref _running, 1) == 0)
        {
            _ = Task.Run(LoopAsync);
        }
    }

    /// <summary>
    /// Runs the work queued under <paramref name="key"/> now, if there is any (a client is back for what
    /// it left): false when the store still fails, and the work stays queued.
    /// </summary>
    public async Task<bool> RunNowAsync(string key)
    {
        if (!_work.TryRemove(key, out var entry))
        {
            return true;
        }

        if (await TryRunAsync(key, entry))
        {
            return true;
        }

        _work.TryAdd(key, entry);
        return false;
    }

    public void Dispose()
    {
        _stop.Cancel();
        _stop.Dispose();
        _work.Clear();
    }

    private async Task LoopAsync()
    {
        var delay = FirstRetry;
        while (true)
        {
            try
            {
                await Task.Delay(delay, _stopping);
            }
            catch (OperationCanceledException)
            {
                return;
            }

            foreach (var (key, entry) in _work.ToArray())
            {
                // Removed before it runs: a RunNowAsync of the same key never runs it twice.
                if (_work.TryRemove(new KeyValuePair<string, Entry>(key, entry)) && !await TryRunAsync(key, entry))
                {
                    if (DateTimeOffset.UtcNow - entry.Since < GiveUpAfter)
                    {
                        _work.TryAdd(key, entry);
                    }
                    else
                    {
                        Log.CleanupAbandoned(_logger, key, GiveUpAfter.TotalMinutes);
                    }
                }
            }

            // Ends when nothing is left; an Add that raced with the end starts it again.
            Volatile.Write(ref _running, 0);
            if (_work.IsEmpty || Interlocked.Exchange(ref _running, 1) == 1)
            {
                return;
            }

            delay = TimeSpan.FromTicks(Math.Min(delay.Ticks * 2, LongestRetry.Ticks));
        }
    }

    // True when the work is done (or failed for good); false while the store is unavailable.
    private async Task<bool> TryRunAsync(string key, Entry entry)
    {
        try
        {
            await entry.Work();
            Log.CleanupDone(_logger, key);
            return true;
        }
        catch (Exception ex) when (S3Failures.IsUnavailable(ex) || ex is FileTransfer.Core.StorageReadException)
        {
            return false;
        }
        catch (Exception ex)
        {
            Log.CleanupFailed(_logger, key, ex);
            return true;
        }
    }

    private sealed record Entry(Func<Task> Work, DateTimeOffset Since);
}
