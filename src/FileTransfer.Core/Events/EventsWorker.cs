using Microsoft.Extensions.Hosting;

namespace FileTransfer.Core;

/// <summary>
/// What runs beside requests: every <see cref="EventsOptions.PollMilliseconds"/> the webhook outbox
/// scan and, with a shared store, the read of other replicas' events; every minute the removal of
/// journal objects past <see cref="EventsOptions.RetentionSeconds"/>. A failed round is logged and
/// tried again at the next tick.
/// </summary>
internal sealed class EventsWorker(FileEvents events) : BackgroundService
{
    private static readonly TimeSpan TrimEvery = TimeSpan.FromMinutes(1);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (events.Store is not { } store)
        {
            return;
        }

        var lastTrim = DateTimeOffset.MinValue;
        using var timer = new PeriodicTimer(events.Options.Poll, events.Time);
        do
        {
            if (store.IsShared && events.Journals)
            {
                await RoundAsync(() => events.Feed.PollAsync(stoppingToken), ex => FileEvents.LogPollFailed(events.Logger, ex), stoppingToken);
            }

            if (events.Options.Webhooks.Count > 0)
            {
                await RoundAsync(() => events.Outbox.ScanAsync(stoppingToken), ex => FileEvents.LogOutboxFailed(events.Logger, ex), stoppingToken);
            }

            if (events.Time.GetUtcNow() - lastTrim >= TrimEvery)
            {
                lastTrim = events.Time.GetUtcNow();
                await RoundAsync(() => TrimAsync(store, stoppingToken), ex => FileEvents.LogTrimFailed(events.Logger, ex), stoppingToken);
            }
        }
        while (await timer.WaitForNextTickAsync(stoppingToken));
    }

    private static async Task RoundAsync(Func<Task> round, Action<Exception> failed, CancellationToken stoppingToken)
    {
        try
        {
            await round();
        }
        catch (Exception ex) when (!stoppingToken.IsCancellationRequested)
        {
            failed(ex);
        }
    }

    // Journal objects are listed oldest first (their keys start with their first event's time).
    private async Task TrimAsync(IEventStore store, CancellationToken cancellationToken)
    {
        var oldest = EventIds.Of((events.Time.GetUtcNow() - events.Options.Retention).UtcTicks, "00000000", 0);
        await foreach (var entry in store.ListAsync(EventBatches.JournalPrefix, null, cancellationToken))
        {
            if (string.CompareOrdinal(entry[EventBatches.JournalPrefix.Length..], oldest) >= 0)
            {
                break;
            }

            await store.DeleteAsync(entry, cancellationToken);
        }
    }
}
