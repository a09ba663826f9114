using System.Diagnostics;

namespace FileTransfer.Benchmarks.E2E.Infrastructure;

/// <summary>What an external program printed and how it ended.</summary>
internal sealed record ToolResult(int ExitCode, string StandardOutput, string StandardError)
{
    public ToolResult EnsureSuccess(string what) => ExitCode == 0
        ? this
        : throw new InvalidOperationException($"{what} exited with {ExitCode}: {StandardError.Trim()} {StandardOutput.Trim()}");
}

/// <summary>Runs curl, h2load, wrk and friends as child processes with a bound on their time.</summary>
internal static class ExternalTool
{
    /// <summary>Full path of a program on PATH (or in /usr/sbin, where Debian puts nginx), or null.</summary>
    public static string? Find(string name) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':').Append("/usr/sbin")
            .Select(dir => Path.Combine(dir, name))
            .FirstOrDefault(File.Exists);

    public static async Task<ToolResult> RunAsync(string fileName, IEnumerable<string> arguments, TimeSpan timeout)
    {
        var start = new ProcessStartInfo(fileName, arguments)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {fileName}");
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var cancel = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(cancel.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{fileName} {string.Join(' ', arguments)} took longer than {timeout}");
        }

        return new ToolResult(process.ExitCode, await stdout, await stderr);
    }

    /// <summary>What a command prints (stdout or stderr), for the machine description.</summary>
    public static async Task<string> DescribeAsync(string fileName, params string[] arguments)
    {
        try
        {
            var result = await RunAsync(fileName, arguments, TimeSpan.FromSeconds(20));
            return (result.StandardOutput + result.StandardError).Trim();
        }
        catch (Exception e) when (e is InvalidOperationException or System.ComponentModel.Win32Exception or TimeoutException)
        {
            return $"({fileName} not available: {e.Message})";
        }
    }
}
