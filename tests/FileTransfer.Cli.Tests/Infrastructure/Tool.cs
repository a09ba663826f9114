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

    /// <summary>Runs the tool's entry point in-process with the standard streams and cancellation of <paramref name="run"/>.</summary>
    public static async Task<CliResult> RunAsync(ToolRun run, params string[] args)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var bytes = run.StandardOutput ?? new MemoryStream();
        var console = new CliConsole(output, error, Interactive: false,
            () => run.StandardInput ?? new MemoryStream(), () => new KeepOpenStream(bytes));
        var exitCode = await FileTransferCommand.RunAsync(args, console, name =>
            run.Environment?.GetValueOrDefault(name) ?? (name == GlobalOptions.ApiKeyVariable ? ExternalTool.ApiKey : null), run.Cancellation ?? TestTimeout.Token);
        return new CliResult(exitCode, output.ToString(), error.ToString()) { OutputBytes = bytes is MemoryStream memory ? memory.ToArray() : [] };
    }

    /// <summary>Runs the built tool as its own process, in <paramref name="workingDirectory"/>.</summary>
    public static Task<CliResult> RunProcessAsync(string workingDirectory, IReadOnlyDictionary<string, string> environment, params string[] args) =>
        RunProgramAsync(["dotnet", Assembly], workingDirectory, environment, args);

    /// <summary>Runs <paramref name="program"/> (e.g. the native executable, <see cref="NativeTool"/>) with <paramref name="args"/> as its own process.</summary>
    public static async Task<CliResult> RunProgramAsync(string[] program, string workingDirectory, IReadOnlyDictionary<string, string> environment, params string[] args)
    {
        using var process = Start(workingDirectory, environment, [.. program[1..], .. args], program[0]);
        var output = process.StandardOutput.ReadToEndAsync(TestTimeout.Token);
        var error = process.StandardError.ReadToEndAsync(TestTimeout.Token);
        await process.WaitForExitAsync(TestTimeout.Token);
        return new CliResult(process.ExitCode, await output, await error);
    }

    /// <summary>
    /// Runs the built tool as its own process with <paramref name="input"/> piped to its standard
    /// input; its standard output is kept as bytes (<see cref="CliResult.OutputBytes"/>).
    /// </summary>
    public static async Task<CliResult> RunProcessWithPipesAsync(string workingDirectory, IReadOnlyDictionary<string, string> environment, byte[] input, params string[] args)
    {
        using var process = Start(workingDirectory, environment, args, redirectInput: true);
        using var bytes = new MemoryStream();
        var output = process.StandardOutput.BaseStream.CopyToAsync(bytes, TestTimeout.Token);
        var error = process.StandardError.ReadToEndAsync(TestTimeout.Token);
        await process.StandardInput.BaseStream.WriteAsync(input, TestTimeout.Token);
        process.StandardInput.Close();
        await process.WaitForExitAsync(TestTimeout.Token);
        await output;
        return new CliResult(process.ExitCode, string.Empty, await error) { OutputBytes = bytes.ToArray() };
    }

    private static Process Start(string workingDirectory, IReadOnlyDictionary<string, string> environment, string[] args, string? program = null, bool redirectInput = false)
    {
        var start = new ProcessStartInfo(program ?? "dotnet", program is null ? [Assembly, .. args] : args)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = redirectInput,
            WorkingDirectory = workingDirectory,
        };
        foreach (var (key, value) in environment)
        {
            start.Environment[key] = value;
        }

        return Process.Start(start)!;
    }

    // The tool disposes the standard output it opened; the test still reads what was written.
    private sealed class KeepOpenStream(Stream inner) : Stream
    {
        public override bool CanRead => false;

        public override bool CanSeek => false;

        public override bool CanWrite => true;

        public override long Length => throw new NotSupportedException();

        public override long Position
        {
            get => throw new NotSupportedException();
            set => throw new NotSupportedException();
        }

        public override void Write(byte[] buffer, int offset, int count) => inner.Write(buffer, offset, count);

        public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default) => inner.WriteAsync(buffer, cancellationToken);

        public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) => inner.WriteAsync(buffer, offset, count, cancellationToken);

        public override void Flush() => inner.Flush();

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();
    }
}

/// <summary>What an in-process run reads and how it is cancelled (Ctrl+C).</summary>
public sealed record ToolRun
{
    /// <summary>The environment; <c>FILETRANSFER_API_KEY</c> defaults to the test servers' key.</summary>
    public IReadOnlyDictionary<string, string>? Environment { get; init; }

    /// <summary>Standard input as bytes (<c>upload -</c>); empty when null.</summary>
    public Stream? StandardInput { get; init; }

    /// <summary>Where standard output's bytes go (<c>-o -</c>); captured in <see cref="CliResult.OutputBytes"/> when null.</summary>
    public Stream? StandardOutput { get; init; }

    /// <summary>Cancels the run as Ctrl+C does; <see cref="TestTimeout"/> when null.</summary>
    public CancellationToken? Cancellation { get; init; }
}

/// <summary>Exit code and everything the tool wrote.</summary>
public sealed record CliResult(int ExitCode, string Output, string Error)
{
    /// <summary>The bytes written to standard output as a stream (<c>download NAME -o -</c>).</summary>
    public byte[] OutputBytes { get; init; } = [];

    public override string ToString() => $"exit {ExitCode}\n--- stdout\n{Output}\n--- stderr\n{Error}";
}
