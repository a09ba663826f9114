using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Logging.Console;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// The console logger the server ships with in place of <see cref="ConsoleLoggerProvider"/>: the same
/// configuration (<c>Logging:Console</c>, its formatters and their options) and the same text, but
/// the logging thread only queues the entry. Formatting and writing happen on one background thread
/// that writes whatever has gathered in one write (<see cref="ConsoleLogWriter"/>), as nginx's
/// buffered access log does. The framework's console logger formats on the logging thread and takes
/// one lock and one write(2) per line: with a line per transfer, a quarter of a small GET's CPU, and
/// its lock the most contended in the process under load (docs/performance-notes.md).
/// </summary>
[ProviderAlias("Console")]
internal sealed class BatchedConsoleLoggerProvider : ILoggerProvider, ISupportExternalScope
{
    private readonly IOptionsMonitor<ConsoleLoggerOptions> _options;
    private readonly ConsoleFormatters _formatters;
    private readonly ConsoleLogWriter _writer;
    private IExternalScopeProvider? _scopes;

    public BatchedConsoleLoggerProvider(IOptionsMonitor<ConsoleLoggerOptions> options, ConsoleFormatters formatters)
        : this(options, formatters, Console.OpenStandardOutput(), Console.OpenStandardError())
    {
    }

    /// <summary>Writes to <paramref name="standardOutput"/> and <paramref name="standardError"/> instead of the console's.</summary>
    internal BatchedConsoleLoggerProvider(IOptionsMonitor<ConsoleLoggerOptions> options, ConsoleFormatters formatters, Stream standardOutput, Stream standardError)
    {
        _options = options;
        _formatters = formatters;
        _writer = new ConsoleLogWriter(formatters, standardOutput, standardError);
    }

    public ILogger CreateLogger(string categoryName) => new Logger(this, categoryName);

    public void SetScopeProvider(IExternalScopeProvider scopeProvider) => _scopes = scopeProvider;

    /// <summary>True when the configured formatter prints scopes.</summary>
    public bool ShowsScopes => _formatters.IncludesScopes(_options.CurrentValue.FormatterName ?? ConsoleFormatterNames.Simple);

    /// <summary>Writes what is queued and stops the writer.</summary>
    public void Dispose() => _writer.Dispose();

    private sealed class Logger(BatchedConsoleLoggerProvider owner, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull =>
            owner._scopes?.Push(state);

        public bool IsEnabled(LogLevel logLevel) => logLevel != LogLevel.None;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (!IsEnabled(logLevel))
            {
                return;
            }

            var options = owner._options.CurrentValue;
            var name = options.FormatterName ?? ConsoleFormatterNames.Simple;

            // Scopes live in the logging thread's async context: taken now, and only when they are shown.
            var scopes = owner._scopes is { } provider && owner._formatters.IncludesScopes(name) ? CapturedScopes.Of(provider) : null;
            var entry = new LogEntry<TState>(logLevel, category, eventId, state, exception, formatter);
            var toError = logLevel >= options.LogToStandardErrorThreshold;

            // A state that reads live objects when formatted is formatted now, as the framework's
            // logger would; only the write is left to the writer.
            owner._writer.Enqueue(
                FrozenLogState.Is(state)
                    ? new ConsoleLogEntry<TState>(name, entry, scopes, toError)
                    : FormattedConsoleLogEntry.Format(owner._formatters.Get(name), entry, scopes, toError),
                options);
        }
    }
}
