using System.Collections;
using FileTransfer.Server.Diagnostics;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>
/// Wraps the logger factory so that no log line, whichever component writes it and whichever
/// provider receives it, carries a signed-link token or an API key: the message, each structured
/// value, the exception and the scopes pass through <see cref="CredentialRedaction"/> first. The
/// framework logs full URLs with their query (hosting diagnostics, HTTP logging), and Kestrel puts
/// the raw request line in its bad-request exceptions; none of them can be told to leave a parameter out.
/// The development key line (<see cref="DevelopmentKeyFile.LogCategory"/>) is the one deliberate exception.
/// It also throttles the framework events a client can repeat at will (<see cref="RepeatedLogEvents"/>).
/// </summary>
internal sealed class RedactingLoggerFactory : ILoggerFactory
{
    private readonly ILoggerFactory _inner;
    private readonly RepeatedLogEvents _repeated;
    private readonly Func<bool> _scopesShown;

    public RedactingLoggerFactory(ILoggerFactory inner, Func<bool>? scopesShown = null)
    {
        _inner = inner;
        _scopesShown = scopesShown ?? (() => false);
        _repeated = new RepeatedLogEvents(new RedactingLogger(inner.CreateLogger(RepeatedLogEvents.SummaryCategory), showsDevelopmentKey: false));
    }

    /// <summary>Replaces the registered <see cref="ILoggerFactory"/>; providers added later (tests, operators) are covered too.</summary>
    public static void Register(IServiceCollection services) =>
        services.Replace(ServiceDescriptor.Singleton<ILoggerFactory>(provider =>
        {
            var providers = provider.GetServices<ILoggerProvider>().ToList();
            var console = providers.OfType<BatchedConsoleLoggerProvider>().FirstOrDefault();
            return new RedactingLoggerFactory(
                new LoggerFactory(
                    providers,
                    provider.GetRequiredService<IOptionsMonitor<LoggerFilterOptions>>(),
                    provider.GetService<IOptions<LoggerFactoryOptions>>(),
                    provider.GetService<IExternalScopeProvider>()),
                console is null ? null : () => console.ShowsScopes);
        }));

    public ILogger CreateLogger(string categoryName) =>
        new RedactingLogger(
            _repeated.Wrap(categoryName, HostingRequestLogger.Wrap(categoryName, _inner.CreateLogger(categoryName), _scopesShown)),
            categoryName == DevelopmentKeyFile.LogCategory);

    public void AddProvider(ILoggerProvider provider) => _inner.AddProvider(provider);

    public void Dispose() => _inner.Dispose();

    private sealed class RedactingLogger(ILogger inner, bool showsDevelopmentKey) : ILogger
    {
        public bool IsEnabled(LogLevel logLevel) => inner.IsEnabled(logLevel);

        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull =>
            inner.BeginScope(RedactedState.Scope(state));

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (!inner.IsEnabled(logLevel))
            {
                return;
            }

            // The line that hands the newcomer the development key must show it (Security/Log.cs).
            if (showsDevelopmentKey && eventId.Id is Security.Log.DevelopmentKeyStoredId or Security.Log.DevelopmentKeyNotStoredId)
            {
                inner.Log(logLevel, eventId, state, exception, formatter);
                return;
            }

            // The values and the exception are redacted now: structured providers read them at once.
            // The text of a state that cannot change (FrozenLogState) is formatted and redacted only
            // when a provider formats it, once for all of them: on the console writer's thread, not
            // the request's (a line per transfer). Any other state's text is taken now.
            var fields = state as IReadOnlyList<KeyValuePair<string, object?>>;
            var redactedFields = RedactedState.Fields(fields) ?? [];
            var redactedException = RedactedException.From(exception);
            IReadOnlyList<KeyValuePair<string, object?>> redacted = FrozenLogState.Is(state, fields)
                ? new RedactedState<TState>(state, exception, formatter, redactedFields)
                : new RedactedState<TState>(CredentialRedaction.Redact(formatter(state, exception)), [.. redactedFields]);
            inner.Log(logLevel, eventId, redacted, redactedException, static (s, _) => s.ToString() ?? "");
        }
    }
}

/// <summary>
/// A log state with its values redacted and its text redacted: the same values for structured
/// providers, the same text (<see cref="Message"/>, <see cref="ToString"/>) for every provider that
/// formats, computed once, when first read (a frozen state) or at the call (any other).
/// </summary>
internal sealed class RedactedState<TState> : IReadOnlyList<KeyValuePair<string, object?>>, IFrozenLogState
{
    private readonly TState _state = default!;
    private readonly Exception? _exception;
    private readonly Func<TState, Exception?, string>? _formatter;
    private readonly IReadOnlyList<KeyValuePair<string, object?>> _fields;
    private string? _message;

    /// <summary>A state that cannot change: its text is formatted when first read.</summary>
    public RedactedState(TState state, Exception? exception, Func<TState, Exception?, string> formatter, IReadOnlyList<KeyValuePair<string, object?>> fields)
    {
        _state = state;
        _exception = exception;
        _formatter = formatter;
        _fields = fields;
    }

    /// <summary>A state whose text and values were taken at the call.</summary>
    public RedactedState(string message, IReadOnlyList<KeyValuePair<string, object?>> fields)
    {
        _message = message;
        _fields = fields;
    }

    public string Message => _message ??= CredentialRedaction.Redact(_formatter!(_state, _exception));

    public int Count => _fields.Count;

    public KeyValuePair<string, object?> this[int index] => _fields[index];

    public IEnumerator<KeyValuePair<string, object?>> GetEnumerator() => _fields.GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    public override string ToString() => Message;
}

/// <summary>How log values and scopes are redacted.</summary>
internal static class RedactedState
{
    /// <summary><paramref name="fields"/> with each value redacted, or the same instance when none needed it.</summary>
    public static IReadOnlyList<KeyValuePair<string, object?>>? Fields(IReadOnlyList<KeyValuePair<string, object?>>? fields)
    {
        if (fields is null)
        {
            return null;
        }

        KeyValuePair<string, object?>[]? copy = null;
        for (var i = 0; i < fields.Count; i++)
        {
            var (name, value) = fields[i];
            var redacted = Value(name, value);
            if (!ReferenceEquals(redacted, value))
            {
                copy ??= [.. fields];
                copy[i] = new(name, redacted);
            }
        }

        return copy ?? fields;
    }

    /// <summary>
    /// Scopes are formatted only by the providers that show them, so they are wrapped and redacted
    /// when read; an enumerable scope stays enumerable for structured providers.
    /// </summary>
    public static object Scope(object state) => state switch
    {
        IReadOnlyList<KeyValuePair<string, object?>> list => new LazyList(list),
        _ => new LazyText(state),
    };

    /// <summary>The name under which a log state carries its message template.</summary>
    private const string OriginalFormat = "{OriginalFormat}";

    // A value named after a credential header is masked whole; a template once per instance (the
    // per-transfer line's ':' would otherwise run the regex on every request); numbers, dates, GUIDs
    // and enums have no text a credential could hide in; any other value is redacted as text.
    private static object? Value(string name, object? value) => value switch
    {
        null => null,
        _ when CredentialRedaction.IsCredentialName(name) => CredentialRedaction.Mask,
        string template when name == OriginalFormat => CredentialRedaction.RedactTemplate(template),
        bool or ValueType and IFormattable => value,
        string text => CredentialRedaction.Redact(text),
        IEnumerable items => Changed(string.Join(", ", items.Cast<object?>()), value),
        _ => Changed(value.ToString() ?? "", value),
    };

    private static object Changed(string text, object original)
    {
        var redacted = CredentialRedaction.Redact(text);
        return ReferenceEquals(text, redacted) ? original : redacted;
    }

    private sealed class LazyText(object state)
    {
        public override string ToString() => CredentialRedaction.Redact(state.ToString() ?? "");
    }

    private sealed class LazyList(IReadOnlyList<KeyValuePair<string, object?>> state) : IReadOnlyList<KeyValuePair<string, object?>>
    {
        public int Count => state.Count;

        public KeyValuePair<string, object?> this[int index] => new(state[index].Key, Value(state[index].Key, state[index].Value));

        public IEnumerator<KeyValuePair<string, object?>> GetEnumerator()
        {
            for (var i = 0; i < state.Count; i++)
            {
                yield return this[i];
            }
        }

        IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

        public override string ToString() => CredentialRedaction.Redact(state.ToString() ?? "");
    }
}

/// <summary>
/// Stands in for a logged exception whose text held a credential (Kestrel's bad-request messages
/// quote the request line): same type name, message and stack trace, redacted. The original is not
/// kept as the inner exception, which providers would print.
/// </summary>
internal sealed class RedactedException : Exception
{
    private readonly string _text;
    private readonly string? _stackTrace;

    private RedactedException(Exception original, string text)
        : base(CredentialRedaction.Redact(original.Message))
    {
        _text = text;
        _stackTrace = original.StackTrace is { } trace ? CredentialRedaction.Redact(trace) : null;
        HResult = original.HResult;
    }

    public override string? StackTrace => _stackTrace;

    public static Exception? From(Exception? exception)
    {
        if (exception is null)
        {
            return null;
        }

        var text = exception.ToString();
        var redacted = CredentialRedaction.Redact(text);
        return ReferenceEquals(text, redacted) ? exception : new RedactedException(exception, redacted);
    }

    public override string ToString() => _text;
}
