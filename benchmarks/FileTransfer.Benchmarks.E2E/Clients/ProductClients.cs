using System.Diagnostics;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Client;

namespace FileTransfer.Benchmarks.E2E.Clients;

/// <summary>
/// The product's client library (<c>FileTransferClient</c>, src/FileTransfer.Client) in this process,
/// set up as its docs show: options only, its own connections, digest verification on (it verifies
/// every download against the SHA-256 the server announces and sends the upload's SHA-256 first).
/// </summary>
internal sealed class LibraryClient(Uri server, FileTransferProtocol protocol, Version? http) : IDisposable
{
    public const string Label = ".NET FileTransfer.Client";

    private readonly FileTransferClient _client = new(new FileTransferClientOptions
    {
        Protocol = protocol,
        ServerAddress = server,
        ApiKey = OurServer.ApiKey,
        HttpVersion = http,
    });

    /// <summary>Downloads <paramref name="name"/> to <paramref name="path"/> (through PATH.part, as users call it); fails unless verified.</summary>
    public async Task<(long Bytes, TimeSpan Duration)> DownloadAsync(string name, string path)
    {
        var stopwatch = Stopwatch.StartNew();
        var result = await _client.DownloadToFileAsync(name, path);
        stopwatch.Stop();
        if (!result.Verified)
        {
            throw new InvalidOperationException("The library did not verify the download: the server announced no SHA-256");
        }

        return (result.Length, stopwatch.Elapsed);
    }

    /// <summary>Uploads <paramref name="path"/> as <paramref name="name"/>; returns the SHA-256 the server stored, lowercase hex.</summary>
    public async Task<(string Sha256, TimeSpan Duration)> UploadAsync(string path, string name)
    {
        var stopwatch = Stopwatch.StartNew();
        var result = await _client.UploadFileAsync(path, name);
        stopwatch.Stop();
        return (Convert.ToHexStringLower(result.Sha256), stopwatch.Elapsed);
    }

    public void Dispose() => _client.Dispose();
}

/// <summary>
/// The product's CLI, <c>filetransfer</c> (src/FileTransfer.Cli), as a user runs it: each transfer is
/// a new process, its wall time measured, start-up included. <see cref="Label"/> is the native
/// executable docs/cli.md installs (Native AOT, published by scripts/publish-cli.sh once per run);
/// <see cref="ToolLabel"/> the same code as the dotnet tool (the built dll run with <c>dotnet</c>),
/// the build the README installed before, beside it.
/// </summary>
internal static class CliClient
{
    public const string Label = "filetransfer (CLI)";
    public const string ToolLabel = "filetransfer (CLI as dotnet tool)";
    public const string BeforeLabel = "filetransfer (CLI, before)";

    private static readonly Lazy<Task<string>> Native = new(PublishAsync);

    /// <summary>Runs <paramref name="build"/> with <paramref name="arguments"/> after the global options for <paramref name="server"/>; returns its wall time and stderr.</summary>
    public static async Task<(TimeSpan Duration, string Output)> RunAsync(CliBuild build, Uri server, bool grpc, bool http2, IEnumerable<string> arguments)
    {
        string[] globals = ["--server", server.ToString(), "--protocol", grpc ? "grpc" : "rest", "--api-key", OurServer.ApiKey];
        if (!grpc)
        {
            globals = [.. globals, "--http", http2 ? "2" : "1.1"];
        }

        var (program, prefix) = build switch
        {
            { Executable: { } other } => (other, Array.Empty<string>()),
            { DotnetTool: true } => ("dotnet", [Builds.CliDll()]),
            _ => (await Native.Value, Array.Empty<string>()),
        };
        return await TimeAsync(program, [.. prefix, .. arguments, .. globals], "filetransfer " + string.Join(' ', arguments), TimeSpan.FromMinutes(30));
    }

    /// <summary><c>filetransfer --version</c> of the native executable: the process's wall time, start-up and all.</summary>
    public static async Task<TimeSpan> VersionAsync() =>
        (await TimeAsync(await Native.Value, ["--version"], "filetransfer --version", TimeSpan.FromMinutes(1))).Duration;

    // One CLI process, its wall time measured around it; fails unless it exits 0.
    private static async Task<(TimeSpan Duration, string Output)> TimeAsync(string program, string[] arguments, string what, TimeSpan timeout)
    {
        var stopwatch = Stopwatch.StartNew();
        var result = await ExternalTool.RunAsync(program, arguments, timeout);
        stopwatch.Stop();
        result.EnsureSuccess(what);
        return (stopwatch.Elapsed, result.StandardError + result.StandardOutput);
    }

    // The native executable of this commit: scripts/publish-cli.sh publishes it unless it is newer than the sources.
    private static async Task<string> PublishAsync()
    {
        var repository = Builds.Repository();
        var result = await ExternalTool.RunAsync("bash", [Path.Combine(repository, "scripts", "publish-cli.sh")], TimeSpan.FromMinutes(15));
        result.EnsureSuccess("scripts/publish-cli.sh (the CLI's Native AOT build; it needs clang and zlib1g-dev)");
        return Path.Combine(repository, "artifacts", "cli", "filetransfer");
    }
}

/// <summary>
/// A build of the CLI a row runs: this commit's native executable (<see cref="This"/>), the same code as
/// the dotnet tool (<see cref="Tool"/>, JIT), or another native build (<c>--baseline-cli</c>, <see cref="Before"/>).
/// </summary>
internal sealed record CliBuild(string Label, string? Executable = null, bool DotnetTool = false)
{
    public static CliBuild This { get; } = new(CliClient.Label);

    public static CliBuild Tool { get; } = new(CliClient.ToolLabel, DotnetTool: true);

    public static CliBuild Before(string executable) => new(CliClient.BeforeLabel, executable);
}
