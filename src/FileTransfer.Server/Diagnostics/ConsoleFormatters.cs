using Microsoft.Extensions.Logging.Console;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// The console formatters registered with the host (<c>simple</c>, <c>json</c>, <c>systemd</c> and any
/// added with <c>AddConsoleFormatter</c>), found by <c>Logging:Console:FormatterName</c> as the
/// framework's console logger finds them, and whether the chosen one shows scopes.
/// </summary>
internal sealed class ConsoleFormatters(
    IEnumerable<ConsoleFormatter> formatters,
    IOptionsMonitor<SimpleConsoleFormatterOptions> simple,
    IOptionsMonitor<JsonConsoleFormatterOptions> json,
    IOptionsMonitor<ConsoleFormatterOptions> systemd)
{
    private readonly Dictionary<string, ConsoleFormatter> _byName = formatters
        .GroupBy(f => f.Name, StringComparer.OrdinalIgnoreCase)
        .ToDictionary(g => g.Key, g => g.Last(), StringComparer.OrdinalIgnoreCase);

    /// <summary>The formatter named <paramref name="name"/>, or <c>simple</c> for a name nobody registered.</summary>
    public ConsoleFormatter Get(string name) =>
        _byName.TryGetValue(name, out var formatter) ? formatter : _byName[ConsoleFormatterNames.Simple];

    /// <summary>True when the formatter shows scopes (an unknown one is assumed to).</summary>
    public bool IncludesScopes(string name) =>
        Is(name, ConsoleFormatterNames.Simple) ? simple.CurrentValue.IncludeScopes
        : Is(name, ConsoleFormatterNames.Json) ? json.CurrentValue.IncludeScopes
        : !Is(name, ConsoleFormatterNames.Systemd) || systemd.CurrentValue.IncludeScopes;

    private static bool Is(string name, string formatter) => name.Equals(formatter, StringComparison.OrdinalIgnoreCase);
}
