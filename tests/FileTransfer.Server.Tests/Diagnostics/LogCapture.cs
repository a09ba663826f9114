using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Diagnostics;

/// <summary>
/// Keeps every log entry with its structured fields, for asserting on them; or, given
/// <paramref name="keeps"/>, only the entries it keeps (by category and level), the rest not even formatted.
/// </summary>
public sealed class LogCapture(Func<string, LogLevel, bool>? keeps = null) : ILoggerProvider
{
    private readonly Func<string, LogLevel, bool>? _keeps = keeps;

    public ConcurrentQueue<Entry> Entries { get; } = new();

    public ILogger CreateLogger(string categoryName) => new Logger(this, categoryName);

    public void Dispose()
    {
    }

    public sealed record Entry(string Category, LogLevel Level, EventId EventId, string Message, IReadOnlyDictionary<string, object?> Fields, Exception? Exception = null);

    private sealed class Logger(LogCapture owner, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => owner._keeps?.Invoke(category, logLevel) ?? true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (!IsEnabled(logLevel))
            {
                return;
            }

            var fields = state as IEnumerable<KeyValuePair<string, object?>> ?? [];
            owner.Entries.Enqueue(new Entry(category, logLevel, eventId, formatter(state, exception), fields.ToDictionary(f => f.Key, f => f.Value), exception));
        }
    }
}
