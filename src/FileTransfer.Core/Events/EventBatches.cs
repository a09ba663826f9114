using System.Buffers;
using System.Text.Json;

namespace FileTransfer.Core;

/// <summary>
/// Group commit of events: whatever was raised while the previous batch was being written goes into
/// the next one, as one journal object (<c>journal/FIRST-ID</c>, JSON lines) and one outbox entry per
/// webhook that wants any of it, written at once. A raise waits for its batch (so that an answered
/// change has its event stored); under load many changes share one write instead of queueing for
/// one each. Once stored, a batch goes to the watchers and to the webhook deliveries.
/// </summary>
internal sealed class EventBatches : IAsyncDisposable
{
    public const string JournalPrefix = "journal/";

    private readonly FileEvents _events;
    private readonly Lock _gate = new();
    private readonly SemaphoreSlim _signal = new(0);
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _writer;
    private List<FileEvent> _pending = [];
    private TaskCompletionSource _stored = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private bool _signalled;

    public EventBatches(FileEvents events)
    {
        _events = events;
        _writer = Task.Run(RunAsync);
    }

    /// <summary>Adds events (in id order, after every event added before) to the next batch; completes when it is stored.</summary>
    public Task Add(FileEvent[] events)
    {
        lock (_gate)
        {
            _pending.AddRange(events);
            if (!_signalled)
            {
                _signalled = true;
                _signal.Release();
            }

            return _stored.Task;
        }
    }

    /// <summary>The journal object of a batch: one JSON object per line.</summary>
    public static byte[] Lines(IReadOnlyList<FileEvent> batch)
    {
        var buffer = new ArrayBufferWriter<byte>(batch.Count * 384);
        foreach (var e in batch)
        {
            using (var writer = new Utf8JsonWriter(buffer))
            {
                FileEventJson.Write(writer, e);
            }

            buffer.Write("\n"u8);
        }

        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>The events of a journal object.</summary>
    public static IEnumerable<FileEvent> Parse(byte[] lines)
    {
        var start = 0;
        while (start < lines.Length)
        {
            var end = Array.IndexOf(lines, (byte)'\n', start);
            end = end < 0 ? lines.Length : end;
            if (end > start)
            {
                using var document = JsonDocument.Parse(lines.AsMemory(start, end - start));
                yield return FileEventJson.Read(document.RootElement);
            }

            start = end + 1;
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        await _writer;
        _stop.Dispose();
    }

    private async Task RunAsync()
    {
        while (true)
        {
            try
            {
                await _signal.WaitAsync(_stop.Token);
            }
            catch (OperationCanceledException)
            {
                // Stopping: what was raised meanwhile is still written.
                if (_pending.Count == 0)
                {
                    return;
                }
            }

            List<FileEvent> batch;
            TaskCompletionSource stored;
            lock (_gate)
            {
                (batch, _pending) = (_pending, []);
                (stored, _stored) = (_stored, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously));
                _signalled = false;
            }

            if (batch.Count == 0)
            {
                stored.TrySetResult();
                continue;
            }

            var entries = await WriteAsync(batch);
            stored.TrySetResult();
            _events.Feed.Publish(batch);
            _events.Outbox.Dispatch(entries);
        }
    }

    private async Task<IReadOnlyList<OutboxEntry>> WriteAsync(List<FileEvent> batch)
    {
        IReadOnlyList<OutboxEntry> entries = _events.Outbox.EntriesFor(batch);
        var store = _events.Store;
        var journal = _events.Journals ? store!.TryCreateAsync(JournalPrefix + batch[0].Id, Lines(batch), CancellationToken.None).AsTask() : Task.FromResult<string?>(null);
        var outbox = store is null || entries.Count == 0 ? Task.FromResult(entries.ToArray()) : Task.WhenAll(entries.Select(_events.Outbox.CreateAsync));
        try
        {
            await Task.WhenAll(journal, outbox);
            entries = outbox.Result;
        }
        catch (Exception ex)
        {
            // The changes happened: watchers still get the events live and deliveries are still tried;
            // only a restart before they are delivered would lose them.
            FileEvents.LogStoreFailed(_events.Logger, batch.Count, batch[0].Id, ex);
        }

        return entries;
    }
}
