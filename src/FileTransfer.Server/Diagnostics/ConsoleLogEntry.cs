using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Logging.Console;

namespace FileTransfer.Server.Diagnostics;

/// <summary>One queued console log entry: what the logging thread knew, formatted later by the writer.</summary>
internal abstract class ConsoleLogEntry(string formatterName, string category, bool toStandardError)
{
    public string FormatterName => formatterName;

    public string Category => category;

    public bool ToStandardError => toStandardError;

    /// <summary>Formats the entry as <paramref name="formatter"/> does into <paramref name="text"/>.</summary>
    public abstract void Write(ConsoleFormatter formatter, TextWriter text);
}

/// <summary>An entry with its state as logged: one object per line, the state copied in, not boxed again.</summary>
internal sealed class ConsoleLogEntry<TState>(string formatterName, LogEntry<TState> entry, CapturedScopes? scopes, bool toStandardError)
    : ConsoleLogEntry(formatterName, entry.Category, toStandardError)
{
    private readonly LogEntry<TState> _entry = entry;

    public override void Write(ConsoleFormatter formatter, TextWriter text) => formatter.Write(in _entry, scopes, text);
}

/// <summary>An entry formatted on the logging thread (its state was not frozen): only its text waits for the writer.</summary>
internal sealed class FormattedConsoleLogEntry(string formatted, string category, bool toStandardError)
    : ConsoleLogEntry(ConsoleFormatterNames.Simple, category, toStandardError)
{
    public static FormattedConsoleLogEntry Format<TState>(ConsoleFormatter formatter, in LogEntry<TState> entry, CapturedScopes? scopes, bool toStandardError)
    {
        using var text = new StringWriter(System.Globalization.CultureInfo.InvariantCulture);
        formatter.Write(in entry, scopes, text);
        return new FormattedConsoleLogEntry(text.ToString(), entry.Category, toStandardError);
    }

    public override void Write(ConsoleFormatter formatter, TextWriter text) => text.Write(formatted);
}

/// <summary>The scopes of the logging thread at the time of the entry, replayed to the formatter.</summary>
internal sealed class CapturedScopes : IExternalScopeProvider
{
    private readonly List<object?> _scopes = [];

    public static CapturedScopes? Of(IExternalScopeProvider provider)
    {
        var captured = new CapturedScopes();
        provider.ForEachScope(static (scope, scopes) => scopes.Add(scope), captured._scopes);
        return captured._scopes.Count == 0 ? null : captured;
    }

    public void ForEachScope<TState>(Action<object?, TState> callback, TState state)
    {
        foreach (var scope in _scopes)
        {
            callback(scope, state);
        }
    }

    // Nothing is pushed onto a replay; the formatter only reads.
    public IDisposable Push(object? state) => Nothing.Instance;

    private sealed class Nothing : IDisposable
    {
        public static readonly Nothing Instance = new();

        public void Dispose()
        {
        }
    }
}
