using System.Collections.Frozen;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// Framework log events that any client can trigger at will, each at most once per interval: the
/// first is written as it is (stack trace and all), the ones after it within the interval are
/// counted, and one line with that count follows at the end of the interval. Without this, an
/// HTTP/2 rapid reset (streams opened and reset at once) wrote 2.3 MB of log in 2.8 s:
/// Kestrel's Critical "exceeded the output operations maximum queue size" dozens of times per
/// connection, and with a key two gRPC entries with stack traces for every reset call.
/// </summary>
internal sealed partial class RepeatedLogEvents(ILogger summaries)
{
    public const string SummaryCategory = "FileTransfer.Server.Diagnostics.RepeatedLogEvents";

    public static readonly TimeSpan Interval = TimeSpan.FromSeconds(10);

    /// <summary>Category, and the event ids in it, that a client can repeat at will.</summary>
    private static readonly FrozenDictionary<string, int[]> Throttled = new Dictionary<string, int[]>
    {
        // Http2QueueOperationsExceeded (Critical): Kestrel's rapid-reset defence closing a connection
        // (CVE-2023-44487); logged again for every stream the client keeps sending until it is closed.
        ["Microsoft.AspNetCore.Server.Kestrel.Http2"] = [60],

        // ErrorReadingMessage and ServiceMethodCanceled (Information, with the exception): a call
        // the client reset or cancelled, or whose message was too large.
        ["Grpc.AspNetCore.Server.ServerCallHandler"] = [14, 28],

        // AuthenticationSchemeChallenged and AuthenticationSchemeForbidden (Information): one per
        // request refused for want of a key or a scope; the status code already says it.
        ["FileTransfer.Server.Security.FileTransferAuthenticationHandler"] = [12, 13],
    }.ToFrozenDictionary(StringComparer.Ordinal);

    private readonly ILogger _summaries = summaries;

    private readonly Dictionary<(string Category, int EventId), Throttle> _throttles =
        Throttled.SelectMany(c => c.Value.Select(id => (c.Key, id))).ToDictionary(key => key, _ => new Throttle());

    /// <summary><paramref name="logger"/> itself, or, for a category with throttled events, a logger that throttles them.</summary>
    public ILogger Wrap(string category, ILogger logger) =>
        Throttled.ContainsKey(category) ? new ThrottledLogger(this, category, logger) : logger;

    private sealed class ThrottledLogger(RepeatedLogEvents owner, string category, ILogger inner) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull =>
            inner.BeginScope(state);

        public bool IsEnabled(LogLevel logLevel) => inner.IsEnabled(logLevel);

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (owner._throttles.TryGetValue((category, eventId.Id), out var throttle) && inner.IsEnabled(logLevel))
            {
                if (!throttle.Lines.ShouldLog(out var suppressed))
                {
                    owner.ReportLater(throttle, category, eventId);
                    return;
                }

                owner.Report(suppressed, category, eventId);
            }

            inner.Log(logLevel, eventId, state, exception, formatter);
        }
    }

    /// <summary>Writes the count of what one event left out, at the end of the interval that left it out (once per interval).</summary>
    private void ReportLater(Throttle throttle, string category, EventId eventId)
    {
        if (Interlocked.CompareExchange(ref throttle.ReportScheduled, 1, 0) != 0)
        {
            return;
        }

        _ = Task.Delay(Interval).ContinueWith(
            _ =>
            {
                Volatile.Write(ref throttle.ReportScheduled, 0);
                Report(throttle.Lines.TakeSuppressed(), category, eventId);
            },
            CancellationToken.None,
            TaskContinuationOptions.ExecuteSynchronously,
            TaskScheduler.Default);
    }

    private void Report(long suppressed, string category, EventId eventId)
    {
        if (suppressed > 0)
        {
            RepeatedEventsLeftOut(_summaries, suppressed, category, eventId.Id, eventId.Name ?? string.Empty, Interval.TotalSeconds);
        }
    }

    [LoggerMessage(EventId = 11, Level = LogLevel.Warning,
        Message = "{Suppressed} more log entries {EventName} ({Category} event {EventId}) were left out: at most one is written every {IntervalSeconds} s, a client can repeat it at will")]
    private static partial void RepeatedEventsLeftOut(ILogger logger, long suppressed, string category, int eventId, string eventName, double intervalSeconds);

    private sealed class Throttle
    {
        public readonly LogThrottle Lines = new(Interval);
        public int ReportScheduled;
    }
}
