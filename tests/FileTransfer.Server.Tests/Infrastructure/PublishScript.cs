using System.Diagnostics;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// Runs one of the Native AOT publish scripts of <c>scripts/</c> (ILCompiler, then clang; each does
/// nothing while its executable is newer than the sources) and fails the test with its output when
/// it fails or outlasts <c>timeout</c>.
/// </summary>
public static class PublishScript
{
    public static async Task RunAsync(string script, TimeSpan timeout)
    {
        var start = new ProcessStartInfo("bash", [Path.Combine(RepositoryPaths.Root, "scripts", script)])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = RepositoryPaths.Root,
        };
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var expiry = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(expiry.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"scripts/{script} took over {timeout.TotalMinutes:0} minutes:\n{await output}");
        }

        Assert.True(process.ExitCode == 0, $"scripts/{script} exited with {process.ExitCode}:\n{await output}\n{await error}");
    }
}
