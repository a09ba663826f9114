using System.Diagnostics;
using System.Net.Http.Json;
using System.Text.RegularExpressions;

namespace FileTransfer.Benchmarks.E2E.Infrastructure;

/// <summary>
/// The built FileTransfer server as its own process, configured only by environment variables,
/// with the opt-in <c>/debug/runtime</c> endpoint on so that its allocations are measured, not guessed.
/// </summary>
internal sealed partial class OurServer : ServerUnderTest
{
    private readonly HttpClient _diagnostics = new();
    private readonly TaskCompletionSource _listening = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly List<string> _output = [];
    private long _readingOverhead;

    private OurServer(string name, string rootPath)
        : base(name, rootPath)
    {
    }

    /// <summary>
    /// The key every benchmark client sends (nginx ignores it). Reads are anonymous and the rate
    /// limiter is off, so that what is measured is the transfer path, not the per-client limits.
    /// </summary>
    public const string ApiKey = "benchmark-key-with-every-scope-0123456789";

    /// <summary>
    /// Starts <paramref name="serverDll"/>: the product, or (<paramref name="product"/> false) the naive
    /// gRPC baseline, which binds its own loopback ports and reads only the storage root.
    /// </summary>
    public static async Task<OurServer> StartAsync(string name, string serverDll, string rootPath, IReadOnlyDictionary<string, string> environment, bool product = true)
    {
        var server = new OurServer(name, rootPath);
        var start = new ProcessStartInfo("dotnet", [serverDll])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = Path.GetDirectoryName(serverDll)!,
        };
        start.Environment["Storage__RootPath"] = rootPath;
        if (!product)
        {
            return await server.LaunchAsync(start);
        }

        start.Environment["Kestrel__Endpoints__Http1__Url"] = "http://127.0.0.1:0";
        start.Environment["Kestrel__Endpoints__Http2__Url"] = "http://127.0.0.1:0";
        start.Environment["Diagnostics__EnableRuntimeEndpoint"] = "true";
        start.Environment["Auth__ApiKeys__0__Key"] = ApiKey;
        start.Environment["Auth__ApiKeys__0__Scopes__0"] = "read";
        start.Environment["Auth__ApiKeys__0__Scopes__1"] = "write";
        start.Environment["Auth__ApiKeys__0__Scopes__2"] = "delete";
        start.Environment["Auth__AllowAnonymousRead"] = "true";
        start.Environment["RateLimit__Enabled"] = "false";
        start.Environment["Logging__Console__FormatterName"] = "simple";
        start.Environment["Logging__Console__FormatterOptions__SingleLine"] = "true";
        foreach (var (key, value) in environment)
        {
            start.Environment[key] = value;
        }

        return await server.LaunchAsync(start);
    }

    private async Task<OurServer> LaunchAsync(ProcessStartInfo start)
    {
        var server = this;
        server.Process = Process.Start(start) ?? throw new InvalidOperationException("Could not start dotnet " + string.Join(' ', start.ArgumentList));
        server.Process.OutputDataReceived += (_, e) => server.OnLine(e.Data);
        server.Process.ErrorDataReceived += (_, e) => server.OnLine(e.Data);
        server.Process.BeginOutputReadLine();
        server.Process.BeginErrorReadLine();
        var first = await Task.WhenAny(server._listening.Task, server.Process.WaitForExitAsync(), Task.Delay(TimeSpan.FromSeconds(60)));
        if (first != server._listening.Task)
        {
            var how = server.Process.HasExited ? $"exited with {server.Process.ExitCode}" : "no 'Listening on' lines within 60 s";
            await server.DisposeAsync();
            throw new InvalidOperationException($"{Name} did not start ({how}):\n" + string.Join('\n', server._output));
        }

        // Reading the endpoint allocates a little itself; measure that (the smallest of a few
        // consecutive readings, once the first ones have paid for JIT) and leave it out of every delta.
        var previous = await server.ReadAsync();
        var overhead = long.MaxValue;
        for (var i = 0; i < 6; i++)
        {
            var next = await server.ReadAsync();
            overhead = Math.Min(overhead, next.AllocatedBytes!.Value - previous.AllocatedBytes!.Value);
            previous = next;
        }

        server._readingOverhead = Math.Max(0, overhead);
        return server;
    }

    public long ReadingOverheadBytes => _readingOverhead;

    /// <summary>Everything the server printed, next to its storage root.</summary>
    public string LogPath => RootPath + $".{Name}.log";

    /// <summary>The server's last log lines, to explain a failed case.</summary>
    public string OutputTail()
    {
        lock (_output)
        {
            return string.Join(" | ", _output.TakeLast(4));
        }
    }

    public override async Task<ServerReading> ReadAsync()
    {
        var snapshot = await _diagnostics.GetFromJsonAsync<RuntimeSnapshot>(new Uri(Http1, "debug/runtime"))
            ?? throw new InvalidOperationException("Empty /debug/runtime answer");
        var tree = ProcessMemory.Tree(Process.Id);
        return new ServerReading(snapshot.TotalAllocatedBytes, snapshot.PeakWorkingSetBytes, ProcessMemory.CpuMilliseconds(tree));
    }

    public override async ValueTask DisposeAsync()
    {
        _diagnostics.Dispose();
        await base.DisposeAsync();
    }

    private void OnLine(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            _output.Add(line);
            if (_output.Count > 10_000)
            {
                _output.RemoveRange(0, 5_000);
            }

            File.AppendAllText(LogPath, line + "\n");
        }

        var match = ListeningLine().Match(line);
        if (match.Success)
        {
            var url = new Uri(match.Groups["url"].Value);
            if (match.Groups["protocols"].Value == "Http1")
            {
                Http1 = url;
            }
            else if (match.Groups["protocols"].Value == "Http2")
            {
                Http2 = url;
            }

            if (Http1 is not null && Http2 is not null)
            {
                _listening.TrySetResult();
            }
        }
    }

    [GeneratedRegex(@"Listening on (?<url>\S+) \((?<protocols>\w+)\)")]
    private static partial Regex ListeningLine();

    private sealed record RuntimeSnapshot(long TotalAllocatedBytes, long PeakWorkingSetBytes);
}
