namespace FileTransfer.Server.Hosting;

/// <summary>
/// The logger factory handed to Kestrel's socket transport: it passes every log call through and
/// tells the <see cref="GuardedConnectionListener"/> each time accept(2) failed. Kestrel's listener
/// (.NET 10, SocketConnectionListener.AcceptAsync) catches every SocketException from accept, EMFILE
/// and ENFILE included, logs event 19 "ConnectionReset" for connection "(null)" and calls accept
/// again at once: at the descriptor limit the pending connection stays queued, so it spins on one
/// core. That log call is the only place the failure can be seen from outside; the listener then
/// cancels the accept in progress and waits before the next one.
/// </summary>
internal sealed class AcceptFailureSignal(ILoggerFactory inner, Action onAcceptFailed) : ILoggerFactory
{
    private const int ConnectionResetEventId = 19;
    private const string NoConnection = "(null)";

    public ILogger CreateLogger(string categoryName) => new SignallingLogger(inner.CreateLogger(categoryName), onAcceptFailed);

    public void AddProvider(ILoggerProvider provider) => inner.AddProvider(provider);

    public void Dispose()
    {
        // The host owns the inner factory.
    }

    /// <summary>True for the transport's "accept failed" event, whatever the log level lets through.</summary>
    internal static bool IsAcceptFailure<TState>(EventId eventId, TState state) =>
        eventId.Id == ConnectionResetEventId
        && state is IReadOnlyList<KeyValuePair<string, object?>> fields
        && fields.Any(f => f.Key == "ConnectionId" && NoConnection.Equals(f.Value));

    private sealed class SignallingLogger(ILogger inner, Action onAcceptFailed) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => inner.BeginScope(state);

        public bool IsEnabled(LogLevel logLevel) => inner.IsEnabled(logLevel);

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            // Kestrel logs this event without asking IsEnabled first, so it arrives at every level.
            if (IsAcceptFailure(eventId, state))
            {
                onAcceptFailed();
            }

            inner.Log(logLevel, eventId, state, exception, formatter);
        }
    }
}
