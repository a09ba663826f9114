using System.Runtime.CompilerServices;
using System.Threading.Channels;

namespace FileTransfer.Core;

/// <summary>
/// The events watchers read (gRPC <c>WatchEvents</c>, <c>GET api/events</c>), in id order: the recent
/// ones in memory, older retained ones from the journal, then live ones as they are released. With
/// one server, an event is released as soon as it is stored. With a shared store (replicas on one
/// bucket) every replica reads the others' journal objects (<see cref="PollAsync"/>) and releases
/// the events of all replicas together in id order, each once it is <see cref="EventsOptions.SettleMilliseconds"/>
/// old: an older event another replica was still writing then comes before it (docs/events.md).
/// </summary>
public sealed class EventFeed : IDisposable
{
    /// <summary>Events held in memory for watchers that resume, and the most a watcher may fall behind.</summary>
    internal const int Capacity = 10_000;

    private readonly FileEvents _events;
    private readonly Lock _gate = new();
    private readonly Queue<FileEvent> _recent = new();
    private readonly List<Watcher> _watchers = [];
    private readonly SortedDictionary<string, FileEvent> _held = new(StringComparer.Ordinal);
    private readonly Dictionary<string, long> _seen = new(StringComparer.Ordinal);
    private readonly string _startedAt;

    // Every event with an id from here on is in _recent or still to come.
    private string _coveredFrom;

    internal EventFeed(FileEvents events)
    {
        _events = events;
        _startedAt = EventIds.Of(events.Time.GetUtcNow().UtcTicks, "00000000", 0);
        _coveredFrom = _startedAt;
    }

    /// <summary>How many watchers are registered now: each ends with its enumeration.</summary>
    internal int WatcherCount
    {
        get
        {
            lock (_gate)
            {
                return _watchers.Count;
            }
        }
    }

    // A journal object written later than this after its first event is missed by live watchers (not by the outbox).
    private TimeSpan Lookback => TimeSpan.FromSeconds(30) + _events.Options.Settle;

    /// <summary>
    /// The events <paramref name="wants"/> (the caller's read rights, a prefix, types), after
    /// <paramref name="after"/> when given (those still retained), then live until cancelled. The
    /// watcher is registered before this returns: a change made after it is among the events. Ends
    /// when the watcher falls <see cref="Capacity"/> events behind: it resumes after the last it got.
    /// Enumerate the result (its end unregisters the watcher).
    /// </summary>
    public IAsyncEnumerable<FileEvent> WatchAsync(Func<FileEvent, bool> wants, string? after, CancellationToken cancellationToken)
    {
        var watcher = new Watcher(wants);
        lock (_gate)
        {
            _watchers.Add(watcher);
            return ReadAsync(watcher, after, after is null ? [] : [.. _recent], _coveredFrom, cancellationToken);
        }
    }

    public void Dispose()
    {
        lock (_gate)
        {
            foreach (var watcher in _watchers)
            {
                watcher.Channel.Writer.TryComplete();
            }
        }
    }

    private async IAsyncEnumerable<FileEvent> ReadAsync(Watcher watcher, string? after, FileEvent[] recent, string coveredFrom, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        try
        {
            if (after is not null)
            {
                if (string.CompareOrdinal(after, coveredFrom) < 0 && _events.Journals)
                {
                    await foreach (var e in ReadJournalAsync(after, cancellationToken))
                    {
                        if (string.CompareOrdinal(e.Id, coveredFrom) >= 0)
                        {
                            break;
                        }

                        if (watcher.Wants(e))
                        {
                            yield return e;
                        }
                    }
                }

                foreach (var e in recent)
                {
                    if (string.CompareOrdinal(e.Id, after) > 0 && watcher.Wants(e))
                    {
                        yield return e;
                    }
                }
            }

            await foreach (var e in watcher.Channel.Reader.ReadAllAsync(cancellationToken))
            {
                yield return e;
            }
        }
        finally
        {
            lock (_gate)
            {
                _watchers.Remove(watcher);
            }
        }
    }

    /// <summary>A stored batch of this process: released now, or with a shared store held until it settles.</summary>
    internal void Publish(IReadOnlyList<FileEvent> batch)
    {
        if (_events.Store is not { IsShared: true } || !_events.Journals)
        {
            Release(batch);
            return;
        }

        lock (_gate)
        {
            _seen[EventBatches.JournalPrefix + batch[0].Id] = batch[0].Time.UtcTicks;
            foreach (var e in batch)
            {
                _held[e.Id] = e;
            }
        }

        ReleaseSettled();
    }

    /// <summary>With a shared store: reads the journal objects other replicas wrote lately, then releases what has settled.</summary>
    internal async Task PollAsync(CancellationToken cancellationToken)
    {
        var store = _events.Store!;
        var now = _events.Time.GetUtcNow().UtcTicks;
        var from = EventBatches.JournalPrefix + EventIds.Of(now - Lookback.Ticks, "00000000", 0);
        await foreach (var entry in store.ListAsync(EventBatches.JournalPrefix, from, cancellationToken))
        {
            var id = entry[EventBatches.JournalPrefix.Length..];
            bool known;
            lock (_gate)
            {
                known = _seen.ContainsKey(entry);
            }

            if (known || !EventIds.IsWellFormed(id) || EventIds.InstanceOf(id) == _events.Instance || string.CompareOrdinal(id, _startedAt) < 0)
            {
                continue;
            }

            var read = await store.ReadAsync(entry, cancellationToken);
            lock (_gate)
            {
                _seen[entry] = EventIds.TicksOf(id);
                foreach (var e in read is null ? [] : EventBatches.Parse(read.Bytes))
                {
                    _held[e.Id] = e;
                }
            }
        }

        lock (_gate)
        {
            foreach (var key in _seen.Where(seen => seen.Value < now - (2 * Lookback.Ticks)).Select(seen => seen.Key).ToList())
            {
                _seen.Remove(key);
            }
        }

        ReleaseSettled();
    }

    private void ReleaseSettled()
    {
        var settled = _events.Time.GetUtcNow().UtcTicks - _events.Options.Settle.Ticks;
        var ready = new List<FileEvent>();
        lock (_gate)
        {
            foreach (var (id, e) in _held)
            {
                if (e.Time.UtcTicks > settled)
                {
                    break;
                }

                ready.Add(e);
            }

            foreach (var e in ready)
            {
                _held.Remove(e.Id);
            }
        }

        if (ready.Count > 0)
        {
            Release(ready);
        }
    }

    private void Release(IReadOnlyList<FileEvent> events)
    {
        var oldest = _events.Time.GetUtcNow() - _events.Options.Retention;
        lock (_gate)
        {
            foreach (var e in events)
            {
                _recent.Enqueue(e);
                foreach (var watcher in _watchers)
                {
                    watcher.Offer(e, _events);
                }
            }

            while (_recent.Count > 0 && (_recent.Count > Capacity || _recent.Peek().Time < oldest))
            {
                _coveredFrom = _recent.Dequeue().Id + "~";
            }
        }
    }

    // The retained events after `after`, in id order. Journal objects are listed in the order of their
    // first event; an object's events are all at or after its first, so everything before the next
    // object's first event can go out.
    private async IAsyncEnumerable<FileEvent> ReadJournalAsync(string after, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var store = _events.Store!;
        var from = EventBatches.JournalPrefix + EventIds.Of(EventIds.TicksOf(after) - Lookback.Ticks, "00000000", 0);
        var pending = new SortedDictionary<string, FileEvent>(StringComparer.Ordinal);
        await foreach (var entry in store.ListAsync(EventBatches.JournalPrefix, from, cancellationToken))
        {
            var first = entry[EventBatches.JournalPrefix.Length..];
            foreach (var e in Drain(pending, first))
            {
                yield return e;
            }

            if (await store.ReadAsync(entry, cancellationToken) is { } read)
            {
                foreach (var e in EventBatches.Parse(read.Bytes).Where(e => string.CompareOrdinal(e.Id, after) > 0))
                {
                    pending[e.Id] = e;
                }
            }
        }

        foreach (var e in Drain(pending, null))
        {
            yield return e;
        }
    }

    private static List<FileEvent> Drain(SortedDictionary<string, FileEvent> pending, string? before)
    {
        var ready = pending.Values.TakeWhile(e => before is null || string.CompareOrdinal(e.Id, before) < 0).ToList();
        foreach (var e in ready)
        {
            pending.Remove(e.Id);
        }

        return ready;
    }

    private sealed class Watcher(Func<FileEvent, bool> wants)
    {
        public Func<FileEvent, bool> Wants => wants;

        public Channel<FileEvent> Channel { get; } = System.Threading.Channels.Channel.CreateBounded<FileEvent>(
            new BoundedChannelOptions(Capacity) { SingleReader = true, SingleWriter = true, FullMode = BoundedChannelFullMode.Wait });

        public void Offer(FileEvent e, FileEvents events)
        {
            if (wants(e) && !Channel.Writer.TryWrite(e) && Channel.Writer.TryComplete())
            {
                FileEvents.LogWatcherTooSlow(events.Logger, Capacity);
            }
        }
    }
}
