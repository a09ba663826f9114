using System.Text.Json;
using System.Text.RegularExpressions;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>The Kreya project in <c>kreya/</c>, read the way Kreya reads it: JSON files, ids, <c>{{ env.x }}</c> templates.</summary>
public static partial class KreyaProject
{
    public static string Root { get; } = Path.Combine(RepositoryPaths.Root, "kreya");

    public static JsonElement Project => Load(Directory.GetFiles(Root, "*.krproj").Single());

    /// <summary>Variables of <c>local.krenv</c>.</summary>
    public static IReadOnlyDictionary<string, string> Environment =>
        Load(Path.Combine(Root, "local.krenv")).GetProperty("globalContent").EnumerateObject().ToDictionary(p => p.Name, p => p.Value.GetString()!);

    /// <summary>Every operation file, relative to the project root.</summary>
    public static IEnumerable<string> Operations =>
        Directory.EnumerateFiles(Root, "*.krop", SearchOption.AllDirectories).Select(p => Path.GetRelativePath(Root, p)).Order(StringComparer.Ordinal);

    public static JsonElement Load(string path)
    {
        using var document = JsonDocument.Parse(File.ReadAllText(Path.Combine(Root, path)));
        return document.RootElement.Clone();
    }

    /// <summary>Replaces <c>{{ env.name }}</c> as Kreya does; an unknown variable fails the test.</summary>
    public static string Resolve(string template) =>
        Template().Replace(template, m => Environment.TryGetValue(m.Groups[1].Value, out var value)
            ? value
            : throw new KeyNotFoundException($"local.krenv has no variable '{m.Groups[1].Value}'"));

    [GeneratedRegex(@"\{\{\s*env\.(\w+)\s*\}\}")]
    private static partial Regex Template();
}
