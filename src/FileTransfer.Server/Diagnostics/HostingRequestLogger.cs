namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// The logger of ASP.NET Core's hosting layer (<see cref="Category"/>), enabled only for what reads
/// its per-request work. Hosting asks it <c>IsEnabled(Critical)</c> on every request and, when it
/// is, starts an <see cref="System.Diagnostics.Activity"/> and a log scope (request id and path) for
/// the request: at the shipped <c>Microsoft.AspNetCore: Warning</c> nothing wrote the request lines
/// (Information) or showed the scope, and the two cost about a tenth of a small GET's allocations
/// (docs/performance-notes.md). So the category counts as enabled at Warning and above only while
/// its request lines are (Information or lower) or the console shows scopes. What it logs at those
/// levels, a start-up failure, the generic host logs too ("Hosting failed to start", with the exception).
/// A tracer (an <c>ActivityListener</c>) or a <c>DiagnosticListener</c> subscriber still gets its
/// activity: hosting starts one for them without asking this logger.
/// </summary>
internal sealed class HostingRequestLogger(ILogger inner, Func<bool> scopesShown) : ILogger
{
    public const string Category = "Microsoft.AspNetCore.Hosting.Diagnostics";

    /// <summary><paramref name="logger"/> as is, unless it is hosting's.</summary>
    public static ILogger Wrap(string category, ILogger logger, Func<bool> scopesShown) =>
        category == Category ? new HostingRequestLogger(logger, scopesShown) : logger;

    public bool IsEnabled(LogLevel logLevel) =>
        inner.IsEnabled(logLevel) && (logLevel <= LogLevel.Information || inner.IsEnabled(LogLevel.Information) || scopesShown());

    public IDisposable? BeginScope<TState>(TState state)
        where TState : notnull =>
        inner.BeginScope(state);

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
    {
        if (IsEnabled(logLevel))
        {
            inner.Log(logLevel, eventId, state, exception, formatter);
        }
    }
}
