using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core;

/// <summary>
/// The one place the core reports a change (docs/events.md): <see cref="FileOperations"/> and
/// <see cref="UploadSessions"/> call <see cref="RaiseAsync"/> once per change, whatever protocol made
/// it. Events get their ids here, in the order of the changes of each name (<see cref="OrderAsync"/>
/// is held across a change and its raise); concurrent raises are written together, as one journal
/// object and one outbox entry per webhook (<see cref="EventBatches"/>), and the raise completes once
/// they are durable. Delivery to receivers and watchers happens after, never on the request's path.
/// </summary>
public sealed partial class FileEvents : IAsyncDisposable
{
    private readonly NameLocks _order = new();
    private readonly Lock _gate = new();
    private readonly EventBatches _batches;
    private readonly TimeProvider _time;
    private long _lastTicks;
    private long _sequence;
    private int _disposed;

    public FileEvents(IEventStore? store, IOptions<EventsOptions> options, TimeProvider time, ILogger<FileEvents> logger)
    {
        Options = options.Value;
        _time = time;
        // Not a secret, only unlikely to repeat: the system's entropy through Random.Shared's seed, so
        // that starting does not load OpenSSL (about 4 MB resident) for four bytes (docs/performance-notes.md).
        Span<byte> instance = stackalloc byte[4];
        Random.Shared.NextBytes(instance);
        Instance = Convert.ToHexStringLower(instance);
        Store = store;
        Logger = logger;
        Feed = new EventFeed(this);
        Outbox = new WebhookOutbox(this);
        _batches = new EventBatches(this);
    }

    /// <summary>This process, in event ids: new at each start, so that ids never collide across restarts or replicas.</summary>
    public string Instance { get; }

    /// <summary>This server's name in events (<see cref="EventsOptions.Replica"/>).</summary>
    public string Replica => Options.ReplicaName;

    /// <summary>The live and retained events watchers read (gRPC WatchEvents, SSE).</summary>
    public EventFeed Feed { get; }

    internal WebhookOutbox Outbox { get; }

    internal EventsOptions Options { get; }

    internal IEventStore? Store { get; }

    internal ILogger Logger { get; }

    internal TimeProvider Time => _time;

    /// <summary>True when events are kept for resuming watchers (a store and a retention above 0).</summary>
    internal bool Journals => Store is not null && Options.RetentionSeconds > 0;

    /// <summary>
    /// Holds <paramref name="names"/> until disposed: a change of one of them and the raise of its event
    /// happen under it, so that another change of the same name cannot get the earlier id.
    /// </summary>
    public ValueTask<IDisposable> OrderAsync(IEnumerable<string> names, CancellationToken cancellationToken) =>
        _order.AcquireAllAsync(names, cancellationToken);

    /// <summary>
    /// Gives <paramref name="drafts"/> their ids and time, in order, and completes once they are
    /// durable (journal and outbox). Call it under <see cref="OrderAsync"/> for changes of files; a
    /// failure to store them is logged, not thrown: the change itself has happened.
    /// </summary>
    public Task RaiseAsync(params FileEvent[] drafts)
    {
        var events = new FileEvent[drafts.Length];
        lock (_gate)
        {
            var ticks = Math.Max(_time.GetUtcNow().UtcTicks, _lastTicks + 1);
            _lastTicks = ticks;
            for (var i = 0; i < drafts.Length; i++)
            {
                events[i] = drafts[i] with
                {
                    Id = EventIds.Of(ticks, Instance, ++_sequence),
                    Time = new DateTimeOffset(ticks, TimeSpan.Zero),
                    Replica = Replica,
                };
            }

            // In the gate: the batches see events in id order.
            return _batches.Add(events);
        }
    }

    /// <summary>Stores what was raised so far, then stops the deliveries (the container does it when the host ends).</summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        await _batches.DisposeAsync();
        await Outbox.DisposeAsync();
        Feed.Dispose();
    }

    [LoggerMessage(EventId = 300, Level = LogLevel.Warning, Message = "Could not store {Count} events (first {EventId}): watchers that resume and webhooks may miss them")]
    internal static partial void LogStoreFailed(ILogger logger, int count, string eventId, Exception exception);

    [LoggerMessage(EventId = 301, Level = LogLevel.Warning, Message = "Reading other replicas' events failed; trying again")]
    internal static partial void LogPollFailed(ILogger logger, Exception exception);

    [LoggerMessage(EventId = 302, Level = LogLevel.Information, Message = "Webhook {Webhook}: event {EventId} not delivered ({Outcome}), attempt {Attempt}; next at {Next}")]
    internal static partial void LogDeliveryFailed(ILogger logger, int webhook, string eventId, string outcome, int attempt, DateTimeOffset next);

    [LoggerMessage(EventId = 303, Level = LogLevel.Warning, Message = "Webhook {Webhook}: event {EventId} dropped after {Attempt} attempts over {Hours} hours")]
    internal static partial void LogDeliveryGaveUp(ILogger logger, int webhook, string eventId, int attempt, int hours);

    [LoggerMessage(EventId = 304, Level = LogLevel.Warning, Message = "The webhook outbox could not be read or updated; trying again")]
    internal static partial void LogOutboxFailed(ILogger logger, Exception exception);

    [LoggerMessage(EventId = 305, Level = LogLevel.Debug, Message = "A watcher fell more than {Capacity} events behind and was disconnected; it resumes from its last event")]
    internal static partial void LogWatcherTooSlow(ILogger logger, int capacity);

    [LoggerMessage(EventId = 306, Level = LogLevel.Warning, Message = "Removing events older than the retention failed; trying again")]
    internal static partial void LogTrimFailed(ILogger logger, Exception exception);
}
