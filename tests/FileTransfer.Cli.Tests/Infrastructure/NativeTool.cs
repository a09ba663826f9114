using System.Diagnostics;
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
        var start = new ProcessStartInfo("bash", [Path.Combine(RepositoryPaths.Root, "scripts", "publish-cli.sh")])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = RepositoryPaths.Root,
        };
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        // A publish takes about a minute on a quiet machine (ILCompiler, then clang): bounded well above that.
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(10));
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"scripts/publish-cli.sh took over 10 minutes:\n{await output}");
        }

        Assert.True(process.ExitCode == 0, $"scripts/publish-cli.sh exited with {process.ExitCode}:\n{await output}\n{await error}");
        return Path.Combine(RepositoryPaths.Root, "artifacts", "cli", "filetransfer");
    }
}
