using System.Diagnostics;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>What a child process left: its exit code (-1 when it was killed for its time), standard output and error.</summary>
public sealed record ChildProcessRun(int ExitCode, string Output, string Error, bool TimedOut);

/// <summary>
/// Runs a script or tool to its end with both streams read as it writes them (a full pipe would
/// stall it), and kills it with its children when it outlasts its time; each caller words its own
/// failure from the run.
/// </summary>
public static class ChildProcess
{
    public static async Task<ChildProcessRun> RunAsync(ProcessStartInfo start, TimeSpan timeout)
    {
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
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
            return new ChildProcessRun(-1, await output, await error, TimedOut: true);
        }

        return new ChildProcessRun(process.ExitCode, await output, await error, TimedOut: false);
    }
}
