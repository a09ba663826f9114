using System.Collections.Concurrent;
using System.Threading.Channels;

namespace FileTransfer.Core;

/// <summary>
/// At-least-once delivery to the configured webhooks. Each stored batch leaves one outbox entry per
/// webhook that wants any of its events, leased to this process, which delivers it at once (one
/// delivery loop per webhook, so a slow receiver holds up only its own deliveries, never a
/// transfer). A failed delivery becomes a new entry due later (<see cref="RetrySchedule"/>) and
/// leased to nobody; <see cref="ScanAsync"/> finds due entries, and entries whose holder died with
/// its lease run out, and takes each with a conditional update, so that of several replicas on one
/// store exactly one tries it.
/// </summary>
internal sealed class WebhookOutbox : IAsyncDisposable
{
    private readonly FileEvents _events;
    private readonly Channel<OutboxEntry>[] _queues;
    private readonly Task[] _loops;
    private readonly ConcurrentDictionary<string, byte> _inFlight = new(StringComparer.Ordinal);
    private readonly CancellationTokenSource _stop = new();
    private readonly byte[][] _keys;

    public WebhookOutbox(FileEvents events)
    {
        _events = events;
        var webhooks = events.Options.Webhooks;
        _keys = [.. webhooks.Select(w => WebhookSignature.KeyOf(w.Secret) ?? [])];
        _queues = [.. webhooks.Select(_ => Channel.CreateUnbounded<OutboxEntry>(new UnboundedChannelOptions { SingleReader = true }))];
        _loops = [.. Enumerable.Range(0, webhooks.Count).Select(i => Task.Run(() => DeliverLoopAsync(i)))];
    }

    private TimeSpan Timeout => TimeSpan.FromSeconds(_events.Options.DeliveryTimeoutSeconds);

    private TimeSpan Lease => TimeSpan.FromTicks(Math.Max(TimeSpan.FromSeconds(60).Ticks, 3 * Timeout.Ticks));

    private DateTimeOffset Now => _events.Time.GetUtcNow();

    /// <summary>The entries a stored batch leaves: per webhook, the events it wants, leased to this process.</summary>
    public IReadOnlyList<OutboxEntry> EntriesFor(IReadOnlyList<FileEvent> batch)
    {
        var entries = new List<OutboxEntry>();
        var now = Now;
        for (var i = 0; i < _queues.Length; i++)
        {
            var webhook = _events.Options.Webhooks[i];
            var wanted = batch.Where(webhook.Wants).ToList();
            if (wanted.Count > 0)
            {
                var entry = new OutboxEntry(i, wanted) { Due = now, Owner = _events.Instance, LeaseUntil = now + Lease };
                entries.Add(entry with { Key = entry.KeyFor() });
            }
        }

        return entries;
    }

    /// <summary>Stores an entry of <see cref="EntriesFor"/>; returns it with its version.</summary>
    public async Task<OutboxEntry> CreateAsync(OutboxEntry entry)
    {
        _inFlight[entry.Key!] = 0;
        return entry with { Version = await _events.Store!.TryCreateAsync(entry.Key!, entry.ToJson(), CancellationToken.None) };
    }

    /// <summary>Hands the entries of a stored batch to their webhooks' delivery loops.</summary>
    public void Dispatch(IReadOnlyList<OutboxEntry> entries)
    {
        foreach (var entry in entries)
        {
            _queues[entry.Webhook].Writer.TryWrite(_events.Store is null ? entry with { Key = null } : entry);
        }
    }

    /// <summary>Takes the due entries nobody holds (a retry, or one whose holder's lease ran out) and queues them.</summary>
    public async Task ScanAsync(CancellationToken cancellationToken)
    {
        var store = _events.Store!;
        for (var i = 0; i < _queues.Length; i++)
        {
            await foreach (var listed in store.ListAsync(OutboxEntry.FolderOf(i), null, cancellationToken))
            {
                var now = Now;
                if (OutboxEntry.DueOf(listed) is not { } due || due > now)
                {
                    break; // in key order: the rest are due later
                }

                if (_inFlight.ContainsKey(listed) || await store.ReadAsync(listed, cancellationToken) is not { } read || OutboxEntry.Parse(listed, read) is not { } entry)
                {
                    continue;
                }

                // Another process's lease holds while it lasts, on a store others share; with one
                // server, a lease left by an earlier run of it is void.
                if (store.IsShared && entry.Owner is { } owner && owner != _events.Instance && entry.LeaseUntil > now)
                {
                    continue;
                }

                if (await TakeAsync(entry, now, cancellationToken) is { } taken)
                {
                    _queues[i].Writer.TryWrite(taken);
                }
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        foreach (var queue in _queues)
        {
            queue.Writer.TryComplete();
        }

        await Task.WhenAll(_loops);
        _stop.Dispose();
    }

    private async Task<OutboxEntry?> TakeAsync(OutboxEntry entry, DateTimeOffset now, CancellationToken cancellationToken)
    {
        var taken = entry with { Owner = _events.Instance, LeaseUntil = now + Lease };
        var version = await _events.Store!.TryReplaceAsync(entry.Key!, entry.Version!, taken.ToJson(), cancellationToken);
        if (version is null || !_inFlight.TryAdd(entry.Key!, 0))
        {
            return null;
        }

        return taken with { Version = version };
    }

    private async Task DeliverLoopAsync(int webhook)
    {
        await foreach (var entry in _queues[webhook].Reader.ReadAllAsync())
        {
            try
            {
                await DeliverAsync(entry);
            }
            catch (Exception ex) when (!_stop.IsCancellationRequested)
            {
                FileEvents.LogOutboxFailed(_events.Logger, ex);
            }
            catch (OperationCanceledException)
            {
                // Stopping: the entry stays in the outbox, leased until its lease runs out.
            }
            finally
            {
                if (entry.Key is { } key)
                {
                    _inFlight.TryRemove(key, out _);
                }
            }
        }
    }

    private async Task DeliverAsync(OutboxEntry entry)
    {
        var store = _events.Store;
        for (var i = 0; i < entry.Events.Count; i++)
        {
            if (store is { IsShared: true } && entry is { Key: not null, Version: not null } && entry.LeaseUntil - Now < 2 * Timeout)
            {
                // Renewed before it could run out mid-delivery; lost: another replica has it now.
                var renewed = entry with { LeaseUntil = Now + Lease };
                if (await store.TryReplaceAsync(entry.Key, entry.Version, renewed.ToJson(), _stop.Token) is not { } version)
                {
                    return;
                }

                entry = renewed with { Version = version };
            }

            var e = entry.Events[i];
            if (await SendAsync(entry.Webhook, e) is { } failure)
            {
                await RescheduleAsync(entry, i, failure);
                return;
            }
        }

        if (entry.Key is { } key)
        {
            await store!.DeleteAsync(key, _stop.Token);
        }
    }

    // The events from the failed one on go into a new entry, due when the schedule says; events too old are dropped.
    private async Task RescheduleAsync(OutboxEntry entry, int failed, string failure)
    {
        var now = Now;
        var attempts = entry.Attempts + 1;
        var remaining = entry.Events.Skip(failed).ToList();
        var first = remaining[0];
        var wait = RetrySchedule.Next(attempts, now - first.Time);
        if (wait is null)
        {
            FileEvents.LogDeliveryGaveUp(_events.Logger, entry.Webhook, first.Id, attempts, (int)RetrySchedule.GiveUpAfter.TotalHours);
            remaining.RemoveAt(0);
            attempts = 0;
            wait = TimeSpan.Zero;
        }
        else
        {
            FileEvents.LogDeliveryFailed(_events.Logger, entry.Webhook, first.Id, failure, attempts, now + wait.Value);
        }

        if (_events.Store is { } store)
        {
            if (remaining.Count > 0)
            {
                var next = new OutboxEntry(entry.Webhook, remaining) { Attempts = attempts, Due = now + wait.Value };
                await store.TryCreateAsync(next.KeyFor(), next.ToJson(), _stop.Token);
            }

            if (entry.Key is { } key)
            {
                await store.DeleteAsync(key, _stop.Token);
            }
        }
    }

    // Null when delivered (any 2xx), else why not.
    private async Task<string?> SendAsync(int webhook, FileEvent e)
    {
        var body = FileEventJson.ToUtf8(e);
        using var request = SignedRequests.Post(_events.Options.Webhooks[webhook].Url!, _keys[webhook], e.Id, body, _events.Time);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(_stop.Token);
        timeout.CancelAfter(Timeout);
        try
        {
            using var response = await SignedRequests.Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, timeout.Token);
            return response.IsSuccessStatusCode ? null : $"HTTP {(int)response.StatusCode}";
        }
        catch (HttpRequestException ex)
        {
            return ex.HttpRequestError.ToString();
        }
        catch (OperationCanceledException) when (!_stop.IsCancellationRequested)
        {
            return "no answer within " + Timeout.TotalSeconds + " s";
        }
    }
}
