using System.Diagnostics;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Interop;

namespace FileTransfer.Cli.Tests.Infrastructure;

/// <summary>The tool as users run it: in-process through its entry point with a captured console, or as a process.</summary>
public static class Tool
{
    /// <summary>The built tool, <c>dotnet filetransfer.dll</c>.</summary>
    public static string Assembly { get; } =
        Path.Combine(RepositoryPaths.Root, "src", "FileTransfer.Cli", "bin", RepositoryPaths.Configuration, "net10.0", "filetransfer.dll");

    /// <summary>
    /// Runs the tool's entry point in-process; standard output and error are captured, neither is a
    /// terminal. Unless the test sets it, <c>FILETRANSFER_API_KEY</c> is the key the test servers accept.
    /// </summary>
    public static Task<CliResult> RunAsync(IReadOnlyDictionary<string, string>? environment, params string[] args) =>
        RunAsync(new ToolRun { Environment = environment }, args);

    public static Task<CliResult> RunAsync(params string[] args) => RunAsync(new ToolRun(), args);

    /// <summary>Runs the tool's entry point in-process with the environment and cancellation of <paramref name="run"/>.</summary>
    public static async Task<CliResult> RunAsync(ToolRun run, params string[] args)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var console = new CliConsole(output, error, Interactive: false);
        var exitCode = await FileTransferCommand.RunAsync(args, console, name =>
            run.Environment?.GetValueOrDefault(name) ?? (name == GlobalOptions.ApiKeyVariable ? ExternalTool.ApiKey : null), run.Cancellation ?? TestTimeout.Token);
        return new CliResult(exitCode, output.ToString(), error.ToString());
    }

    /// <summary>Runs the built tool as its own process, in <paramref name="workingDirectory"/>.</summary>
    public static async Task<CliResult> RunProcessAsync(string workingDirectory, IReadOnlyDictionary<string, string> environment, params string[] args)
    {
        using var process = Start(workingDirectory, environment, args);
        var output = process.StandardOutput.ReadToEndAsync(TestTimeout.Token);
        var error = process.StandardError.ReadToEndAsync(TestTimeout.Token);
        await process.WaitForExitAsync(TestTimeout.Token);
        return new CliResult(process.ExitCode, await output, await error);
    }

    private static Process Start(string workingDirectory, IReadOnlyDictionary<string, string> environment, string[] args)
    {
        var start = new ProcessStartInfo("dotnet", [Assembly, .. args])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = workingDirectory,
        };
        foreach (var (key, value) in environment)
        {
            start.Environment[key] = value;
        }

        return Process.Start(start)!;
    }
}

/// <summary>The environment of an in-process run and how it is cancelled (Ctrl+C).</summary>
public sealed record ToolRun
{
    /// <summary>The environment; <c>FILETRANSFER_API_KEY</c> defaults to the test servers' key.</summary>
    public IReadOnlyDictionary<string, string>? Environment { get; init; }

    /// <summary>Cancels the run as Ctrl+C does; <see cref="TestTimeout"/> when null.</summary>
    public CancellationToken? Cancellation { get; init; }
}

/// <summary>Exit code and everything the tool wrote.</summary>
public sealed record CliResult(int ExitCode, string Output, string Error)
{
    public override string ToString() => $"exit {ExitCode}\n--- stdout\n{Output}\n--- stderr\n{Error}";
}
