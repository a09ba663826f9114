using System.Text.RegularExpressions;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Documentation;

/// <summary>
/// The pages that map the code stay true to it: docs/architecture.md and CONTRIBUTING.md's code map
/// name every project under src/ (a new project, or one they forgot, fails here) and architecture.md
/// every folder of the server; and a source path any page names exists.
/// </summary>
public sealed partial class CodeMapTests
{
    private static readonly string[] Pages = ["README.md", "CONTRIBUTING.md", .. Directory.GetFiles(Path.Combine(RepositoryPaths.Root, "docs"), "*.md").Select(f => "docs/" + Path.GetFileName(f))];

    private static readonly string[] ProjectNames =
        [.. Directory.GetDirectories(Path.Combine(RepositoryPaths.Root, "src")).Where(d => Directory.GetFiles(d, "*.csproj").Length > 0).Select(Path.GetFileName).OfType<string>()];

    private static readonly string[] ServerFolderNames =
        [.. Directory.GetDirectories(Path.Combine(RepositoryPaths.Root, "src", "FileTransfer.Server")).Where(d => Directory.GetFiles(d, "*.cs").Length > 0).Select(Path.GetFileName).OfType<string>()];

    // The folders the repository ignores from its root (a server's storage made by `dotnet run`):
    // pages may name them, a clean clone does not have them.
    private static readonly string[] MadeAtRunTime =
        [.. File.ReadAllLines(Path.Combine(RepositoryPaths.Root, ".gitignore")).Where(line => line.StartsWith('/')).Select(line => line.Trim('/'))];

    public static TheoryData<string> Projects() => [.. ProjectNames];

    public static TheoryData<string> ServerFolders() => [.. ServerFolderNames];

    [Fact]
    public void Every_Project_And_Server_Folder_Is_Found()
    {
        Assert.Contains("FileTransfer.Storage.S3", ProjectNames);
        Assert.Contains("FileTransfer.Cli", ProjectNames);
        Assert.Contains("Protocol", ServerFolderNames);
    }

    [Theory]
    [MemberData(nameof(Projects))]
    public void The_Architecture_Names_Every_Project(string project) =>
        Assert.Contains($"`src/{project}`", Docs.Text("docs/architecture.md"), StringComparison.Ordinal);

    [Theory]
    [MemberData(nameof(Projects))]
    public void The_Code_Map_Names_Every_Project(string project) =>
        Assert.Contains($"| `src/{project}` |", Docs.Text("CONTRIBUTING.md"), StringComparison.Ordinal);

    [Theory]
    [MemberData(nameof(ServerFolders))]
    public void The_Architecture_Names_Every_Server_Folder(string folder) =>
        Assert.Contains($"| `{folder}/` |", Docs.Text("docs/architecture.md"), StringComparison.Ordinal);

    [Fact]
    public void Every_Source_Path_A_Page_Names_Exists()
    {
        var missing = Pages
            .SelectMany(page => SourcePath().Matches(Docs.Text(page)).Select(m => (Page: page, Path: m.Groups["path"].Value)))
            .Where(named => !named.Path.Contains('<') && !named.Path.Contains('*'))
            .Where(named => !MadeAtRunTime.Any(folder => named.Path.TrimEnd('/') == folder || named.Path.StartsWith(folder + "/", StringComparison.Ordinal)))
            .Where(named => !File.Exists(Path.Combine(RepositoryPaths.Root, named.Path)) && !Directory.Exists(Path.Combine(RepositoryPaths.Root, named.Path)))
            .Select(named => $"{named.Page}: {named.Path}")
            .ToList();

        Assert.True(missing.Count == 0, string.Join('\n', missing));
    }

    // `src/...`, `tests/...` and the like in backticks, up to a space, an anchor or a line reference.
    [GeneratedRegex(@"`(?<path>(?:src|tests|benchmarks|scripts|protos)/[^`\s#:]*)`")]
    private static partial Regex SourcePath();
}
