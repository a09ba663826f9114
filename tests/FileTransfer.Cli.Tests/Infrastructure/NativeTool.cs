using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Cli.Tests.Infrastructure;

/// <summary>
/// The tool as docs/cli.md installs it: one native executable published with Native AOT by
/// <c>scripts/publish-cli.sh</c> (skipped while it is newer than the sources), once per test run.
/// </summary>
public sealed class NativeTool
{
    private static readonly Lazy<Task<string>> Published = new(PublishAsync);

    /// <summary>The path of <c>artifacts/cli/filetransfer</c>, published first if it is missing or stale.</summary>
    public static Task<string> PathAsync() => Published.Value;

    private static async Task<string> PublishAsync()
    {
        // A publish takes about a minute on a quiet machine: bounded well above that.
        await PublishScript.RunAsync("publish-cli.sh", TimeSpan.FromMinutes(10));
        return Path.Combine(RepositoryPaths.Root, "artifacts", "cli", "filetransfer");
    }
}
