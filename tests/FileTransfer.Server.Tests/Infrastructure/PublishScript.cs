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
        var run = await ChildProcess.RunAsync(new ProcessStartInfo("bash", [Path.Combine(RepositoryPaths.Root, "scripts", script)]) { WorkingDirectory = RepositoryPaths.Root }, timeout);
        if (run.TimedOut)
        {
            throw new TimeoutException($"scripts/{script} took over {timeout.TotalMinutes:0} minutes:\n{run.Output}");
        }

        Assert.True(run.ExitCode == 0, $"scripts/{script} exited with {run.ExitCode}:\n{run.Output}\n{run.Error}");
    }
}
