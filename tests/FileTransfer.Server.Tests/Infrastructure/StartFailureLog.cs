using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// Keeps the first exception the generic host logs as an error (it logs why it did not start before
/// it throws), so that <see cref="FileTransferFactory"/> can name it when the factory loses it.
/// </summary>
internal sealed class StartFailureLog : ILoggerProvider
{
    private const string HostCategory = "Microsoft.Extensions.Hosting";
    private Exception? _reason;

    public Exception? Reason => Volatile.Read(ref _reason);

    public ILogger CreateLogger(string categoryName) =>
        categoryName.StartsWith(HostCategory, StringComparison.Ordinal) ? new Logger(this) : NullLogger;

    public void Dispose()
    {
    }

    private static ILogger NullLogger => Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance;

    private sealed class Logger(StartFailureLog owner) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Error;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (logLevel >= LogLevel.Error && exception is not null)
            {
                Interlocked.CompareExchange(ref owner._reason, exception, null);
            }
        }
    }
}
