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
/// The product's CLI, <c>filetransfer</c> (src/FileTransfer.Cli), the built dll run with
/// <c>dotnet</c> as a user runs the tool: each transfer is a new process, its wall time measured,
/// start-up included.
/// </summary>
internal static class CliClient
{
    public const string Label = "filetransfer (CLI)";

    /// <summary>Runs the CLI with <paramref name="arguments"/> after the global options for <paramref name="server"/>; returns its wall time and stderr.</summary>
    public static async Task<(TimeSpan Duration, string Output)> RunAsync(Uri server, bool grpc, bool http2, IEnumerable<string> arguments)
    {
        string[] globals = ["--server", server.ToString(), "--protocol", grpc ? "grpc" : "rest", "--api-key", OurServer.ApiKey];
        if (!grpc)
        {
            globals = [.. globals, "--http", http2 ? "2" : "1.1"];
        }

        var stopwatch = Stopwatch.StartNew();
        var result = await ExternalTool.RunAsync("dotnet", [Builds.CliDll(), .. arguments, .. globals], TimeSpan.FromMinutes(30));
        stopwatch.Stop();
        result.EnsureSuccess("filetransfer " + string.Join(' ', arguments));
        return (stopwatch.Elapsed, result.StandardError + result.StandardOutput);
    }
}
