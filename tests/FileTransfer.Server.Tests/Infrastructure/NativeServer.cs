using System.Diagnostics;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// The server as the container image runs it: one native executable published with Native AOT by
/// <c>scripts/publish-server.sh</c> (skipped while it is newer than the sources), once per test run.
/// </summary>
public static class NativeServer
{
    private static readonly Lazy<Task<string>> Published = new(PublishAsync);

    /// <summary>The path of <c>artifacts/server/FileTransfer.Server</c>, published first if it is missing or stale.</summary>
    public static Task<string> PathAsync() => Published.Value;

    private static async Task<string> PublishAsync()
    {
        var start = new ProcessStartInfo("bash", [Path.Combine(RepositoryPaths.Root, "scripts", "publish-server.sh")])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = RepositoryPaths.Root,
        };
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        // A publish takes one to two minutes on a quiet machine (ILCompiler, then clang): bounded well above that.
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(12));
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"scripts/publish-server.sh took over 12 minutes:\n{await output}");
        }

        Assert.True(process.ExitCode == 0, $"scripts/publish-server.sh exited with {process.ExitCode}:\n{await output}\n{await error}");
        return Path.Combine(RepositoryPaths.Root, "artifacts", "server", "FileTransfer.Server");
    }
}
