using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// A logging provider that keeps everything a log sink could write: the message, every structured
/// value, the exception's full text and the active scopes, each rendered as text.
/// </summary>
public sealed class LogSink : ILoggerProvider, ISupportExternalScope
{
    private IExternalScopeProvider _scopes = new LoggerExternalScopeProvider();

    public ConcurrentQueue<Entry> Entries { get; } = new();

    public ILogger CreateLogger(string categoryName) => new Logger(this, categoryName);

    public void SetScopeProvider(IExternalScopeProvider scopeProvider) => _scopes = scopeProvider;

    public void Dispose()
    {
    }

    /// <summary>One log call; <see cref="Text"/> is all of it, as any provider could print it.</summary>
    public sealed record Entry(string Category, LogLevel Level, EventId EventId, string Message, IReadOnlyList<string> Fields, string? Exception, IReadOnlyList<string> Scopes)
    {
        public string Text => string.Join('\n', [Category, Message, .. Fields, Exception ?? "", .. Scopes]);
    }

    private sealed class Logger(LogSink owner, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => owner._scopes.Push(state);

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            var fields = (state as IEnumerable<KeyValuePair<string, object?>> ?? []).Select(f => $"{f.Key}={Render(f.Value)}").ToList();
            var scopes = new List<string>();
            owner._scopes.ForEachScope(
                (scope, list) =>
                {
                    list.Add(scope?.ToString() ?? "");
                    if (scope is IEnumerable<KeyValuePair<string, object?>> values)
                    {
                        list.AddRange(values.Select(v => $"{v.Key}={Render(v.Value)}"));
                    }
                },
                scopes);
            owner.Entries.Enqueue(new Entry(category, logLevel, eventId, formatter(state, exception), fields, exception?.ToString(), scopes));
        }

        private static string Render(object? value) =>
            value is System.Collections.IEnumerable items and not string ? string.Join(", ", items.Cast<object?>()) : value?.ToString() ?? "";
    }
}
