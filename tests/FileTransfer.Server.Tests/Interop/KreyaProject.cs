using System.Text.Json;
using System.Text.RegularExpressions;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>
/// The Kreya project in <c>kreya/</c>, read the way Kreya reads it: JSON files (request files may
/// hold <c>//</c> comments), ids, <c>{{ env.x }}</c> and <c>{{ vars.x }}</c> templates.
/// </summary>
public static partial class KreyaProject
{
    private static readonly JsonDocumentOptions JsonOptions = new() { CommentHandling = JsonCommentHandling.Skip };

    public static string Root { get; } = Path.Combine(RepositoryPaths.Root, "kreya");

    public static JsonElement Project => Load(Directory.GetFiles(Root, "*.krproj").Single());

    /// <summary>Variables of <c>local.krenv</c>.</summary>
    public static IReadOnlyDictionary<string, string> Environment =>
        Load(Path.Combine(Root, "local.krenv")).GetProperty("globalContent").EnumerateObject().ToDictionary(p => p.Name, p => p.Value.GetString()!);

    /// <summary>Every operation file, relative to the project root.</summary>
    public static IEnumerable<string> Operations =>
        Directory.EnumerateFiles(Root, "*.krop", SearchOption.AllDirectories).Select(p => Path.GetRelativePath(Root, p)).Order(StringComparer.Ordinal);

    public static IEnumerable<string> RestOperations => Operations.Where(o => Invoker(o) == "rest");

    public static IEnumerable<string> GrpcOperations => Operations.Where(o => Invoker(o) == "grpc");

    /// <summary>Every script, relative to the project root.</summary>
    public static IEnumerable<string> Scripts =>
        Directory.EnumerateFiles(Root, "*.js", SearchOption.AllDirectories).Select(p => Path.GetRelativePath(Root, p)).Order(StringComparer.Ordinal);

    public static JsonElement Load(string path)
    {
        using var document = JsonDocument.Parse(File.ReadAllText(Path.Combine(Root, path)), JsonOptions);
        return document.RootElement.Clone();
    }

    /// <summary>The files an operation names (its requests and its script), relative to the project root.</summary>
    public static IEnumerable<string> FilesOf(string operationFile)
    {
        var operation = Load(operationFile);
        var folder = Path.GetDirectoryName(operationFile)!;
        foreach (var request in operation.GetProperty("requests").EnumerateArray())
        {
            if (request.TryGetProperty("location", out var location))
            {
                yield return Path.Combine(folder, location.GetString()!);
            }
        }

        if (operation.TryGetProperty("script", out var script))
        {
            yield return Path.Combine(folder, script.GetProperty("src").GetString()!);
        }
    }

    /// <summary>Replaces <c>{{ env.name }}</c> as Kreya does; an unknown variable fails the test.</summary>
    public static string Resolve(string template, IReadOnlyDictionary<string, string>? overrides = null) =>
        EnvTemplate().Replace(template, m =>
            overrides?.GetValueOrDefault(m.Groups[1].Value) ?? (Environment.TryGetValue(m.Groups[1].Value, out var value)
                ? value
                : throw new KeyNotFoundException($"local.krenv has no variable '{m.Groups[1].Value}'")));

    /// <summary>
    /// A request file as Kreya sends it: environment variables resolved, user variables (set by
    /// scripts) inserted as they are, an unset one as nothing, and comments dropped.
    /// </summary>
    public static string Render(string requestFile, IReadOnlyDictionary<string, string>? userVariables = null)
    {
        var text = VarsTemplate().Replace(Resolve(File.ReadAllText(Path.Combine(Root, requestFile))), m => userVariables?.GetValueOrDefault(m.Groups[1].Value) ?? "");
        using var document = JsonDocument.Parse(text, JsonOptions);

        // Written anew, the JSON keeps its values and loses the comments (the raw text would keep both).
        return JsonSerializer.Serialize(document.RootElement);
    }

    /// <summary>The names of the environment variables a text uses.</summary>
    public static IEnumerable<string> EnvironmentVariablesIn(string text) => EnvTemplate().Matches(text).Select(m => m.Groups[1].Value);

    /// <summary>The names of the user variables a text uses.</summary>
    public static IEnumerable<string> UserVariablesIn(string text) => VarsTemplate().Matches(text).Select(m => m.Groups[1].Value);

    /// <summary>The names of the user variables a script sets.</summary>
    public static IEnumerable<string> UserVariablesSetBy(string script) => VariableSet().Matches(script).Select(m => m.Groups[1].Value);

    /// <summary>
    /// The header the directory default authentication adds to a REST request: the auth config
    /// <c>directory.krpref</c> names, its value templated from the environment.
    /// </summary>
    public static (string Name, string Value) Authorization(string protocol, IReadOnlyDictionary<string, string>? overrides = null)
    {
        var authId = Load("directory.krpref").GetProperty("settings")[0].GetProperty("options").GetProperty(protocol).GetProperty("authId").GetString();
        var config = Project.GetProperty("authConfigs").EnumerateArray().Single(a => a.GetProperty("id").GetString() == authId);
        var advanced = config.GetProperty("advancedOptions");
        Assert.Equal("header", advanced.GetProperty("addToType").GetString());
        var value = advanced.GetProperty("headerPrefix").GetString() + Resolve(config.GetProperty("options").GetProperty("value").GetString()!, overrides);
        return (advanced.GetProperty("key").GetString()!, value);
    }

    private static string Invoker(string operationFile) => Load(operationFile).GetProperty("invokerName").GetString()!;

    [GeneratedRegex(@"\{\{\s*env\.(\w+)\s*\}\}")]
    private static partial Regex EnvTemplate();

    [GeneratedRegex(@"\{\{\s*vars\.(\w+)\s*\}\}")]
    private static partial Regex VarsTemplate();

    [GeneratedRegex(@"kreya\.variables\.set\(\s*'(\w+)'")]
    private static partial Regex VariableSet();
}
