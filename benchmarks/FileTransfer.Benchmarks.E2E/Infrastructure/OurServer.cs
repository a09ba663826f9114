using System.Diagnostics;
using System.Globalization;
using System.Net.Http.Json;
using System.Text;
using System.Text.RegularExpressions;

namespace FileTransfer.Benchmarks.E2E.Infrastructure;

/// <summary>
/// The built FileTransfer server as its own process, configured as shipped (appsettings.json in the
/// Production environment) except for the few settings in <see cref="Overrides"/>, each with its
/// reason; the report prints them. Also starts the published gRPC services of
/// benchmarks/FileTransfer.Benchmarks.NaiveGrpc, which bind their own ports.
/// </summary>
internal sealed partial class OurServer : ServerUnderTest
{
    /// <summary>The key every benchmark client sends, with every scope; nginx ignores it.</summary>
    public const string ApiKey = "benchmark-key-with-every-scope-0123456789";

    private readonly HttpClient _diagnostics = new();
    private readonly TaskCompletionSource _listening = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly List<string> _output = [];
    private readonly StringBuilder _head = new();
    private long _readingOverhead;

    private OurServer(string name, string rootPath)
        : base(name, rootPath)
    {
    }

    /// <summary>
    /// What the benchmark sets on the product beyond the storage root, and why. Everything else is
    /// the shipped default: API keys required for every request (no anonymous reads), the rate
    /// limiter on, the connection guard on, default logging (Information, console) with its
    /// per-transfer line, and the Production environment.
    /// </summary>
    public static IReadOnlyList<(string Key, string Value, string Why)> Overrides { get; } =
    [
        ("ASPNETCORE_ENVIRONMENT", "Production", "as deployed; an inherited Development would allow anonymous reads"),
        ("Kestrel__Endpoints__Http1__Url", "http://127.0.0.1:0", "a free loopback port (shipped: localhost:5000), HTTP/1.1 as shipped"),
        ("Kestrel__Endpoints__Http2__Url", "http://127.0.0.1:0", "a free loopback port (shipped: localhost:5001), h2c as shipped"),
        ("Auth__ApiKeys__0__Key", ApiKey, "the one key every client sends (shipped: none configured)"),
        ("Auth__ApiKeys__0__Scopes__0", "read", "the key's scopes"),
        ("Auth__ApiKeys__0__Scopes__1", "write", "the key's scopes"),
        ("Auth__ApiKeys__0__Scopes__2", "delete", "the key's scopes"),
        ("RateLimit__PermitsPerSecond", "1000000", "raised from 50: every benchmark client is one key; the limiter still runs on every request"),
        ("RateLimit__Burst", "1000000", "raised from 100, for the same reason"),
        ("RateLimit__ConcurrentTransfers", "100000", "raised from 16: the concurrency cases run 256 transfers with one key"),
        ("Diagnostics__EnableRuntimeEndpoint", "true", "maps GET /debug/runtime, read before and after each run for allocated bytes; not on any transfer's path"),
    ];

    /// <summary>Starts the product from <paramref name="serverDll"/> (or a native executable) with <see cref="Overrides"/> and then <paramref name="environment"/>.</summary>
    public static Task<OurServer> StartProductAsync(string name, string serverDll, string rootPath, IReadOnlyDictionary<string, string> environment)
    {
        var server = new OurServer(name, rootPath);
        var start = Start(serverDll, rootPath);
        foreach (var (key, value, _) in Overrides)
        {
            start.Environment[key] = value;
        }

        foreach (var (key, value) in environment)
        {
            start.Environment[key] = value;
        }

        return server.LaunchAsync(start);
    }

    /// <summary>Starts one of the published gRPC services (benchmarks/FileTransfer.Benchmarks.NaiveGrpc) in <paramref name="mode"/>.</summary>
    public static Task<OurServer> StartPublishedAsync(string name, string dll, string rootPath, string mode)
    {
        var start = Start(dll, rootPath);
        start.Environment["Naive__Mode"] = mode;
        return new OurServer(name, rootPath).LaunchAsync(start);
    }

    // A build's dll runs on the dotnet host; a native executable (a Native AOT publish) runs itself.
    private static ProcessStartInfo Start(string dll, string rootPath)
    {
        var start = new ProcessStartInfo(dll.EndsWith(".dll", StringComparison.OrdinalIgnoreCase) ? "dotnet" : dll, dll.EndsWith(".dll", StringComparison.OrdinalIgnoreCase) ? [dll] : [])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = Path.GetDirectoryName(dll)!,
        };

        // Nothing inherited from the shell that runs the harness may change the configuration.
        foreach (var key in start.Environment.Keys.Where(IsConfiguration).ToList())
        {
            start.Environment.Remove(key);
        }

        start.Environment["Storage__RootPath"] = rootPath;
        return start;
    }

    /// <summary>Whether an inherited environment variable would configure a .NET server (ASP.NET Core, the GC, any section).</summary>
    public static bool IsConfiguration(string key) =>
        key.StartsWith("ASPNETCORE_", StringComparison.Ordinal) || key == "DOTNET_ENVIRONMENT"
        || key.StartsWith("DOTNET_GC", StringComparison.OrdinalIgnoreCase) || key.StartsWith("COMPlus_", StringComparison.OrdinalIgnoreCase)
        || key.Contains("__", StringComparison.Ordinal);

    private async Task<OurServer> LaunchAsync(ProcessStartInfo start)
    {
        Configuration = $"dotnet {string.Join(' ', start.ArgumentList)}\n" + string.Join('\n',
            start.Environment.Where(e => e.Key == "Storage__RootPath" || e.Key == "Naive__Mode" || e.Key == "ASPNETCORE_ENVIRONMENT" || e.Key.Contains("__", StringComparison.Ordinal))
                .OrderBy(e => e.Key, StringComparer.Ordinal).Select(e => $"{e.Key}={Shown(e.Key, e.Value)}"));
        Process = Process.Start(start) ?? throw new InvalidOperationException("Could not start dotnet " + string.Join(' ', start.ArgumentList));
        Process.OutputDataReceived += (_, e) => OnLine(e.Data);
        Process.ErrorDataReceived += (_, e) => OnLine(e.Data);
        Process.BeginOutputReadLine();
        Process.BeginErrorReadLine();
        var first = await Task.WhenAny(_listening.Task, Process.WaitForExitAsync(), Task.Delay(TimeSpan.FromSeconds(60)));
        if (first != _listening.Task)
        {
            var how = Process.HasExited ? $"exited with {Process.ExitCode}" : "no 'Listening on' lines within 60 s";
            await DisposeAsync();
            throw new InvalidOperationException($"{Name} did not start ({how}):\n" + string.Join('\n', _output));
        }

        // Reading the endpoint allocates a little itself; measure that (the smallest of a few
        // consecutive readings, once the first ones have paid for JIT) and leave it out of every delta.
        var previous = await ReadAsync();
        var overhead = long.MaxValue;
        for (var i = 0; i < 6; i++)
        {
            var next = await ReadAsync();
            overhead = Math.Min(overhead, next.AllocatedBytes!.Value - previous.AllocatedBytes!.Value);
            previous = next;
        }

        _readingOverhead = Math.Max(0, overhead);
        return this;
    }

    // The report keeps every setting but a secret (the S3 copies' store credentials).
    private static string? Shown(string key, string? value) =>
        key.EndsWith("SecretKey", StringComparison.Ordinal) ? "[redacted]" : value;

    public long ReadingOverheadBytes => _readingOverhead;

    /// <summary>Lines the server has written to its console so far (the product logs one per transfer).</summary>
    public long LogLines { get; private set; }

    /// <summary>The server's last log lines, to explain a failed case.</summary>
    public string OutputTail()
    {
        lock (_output)
        {
            return string.Join(" | ", _output.TakeLast(4));
        }
    }

    /// <summary>
    /// What the server printed: its first and last lines and how many lay between (kept in memory,
    /// written once at the end: no file write per line). Under the small-file load the product logs
    /// a line per request, millions in a run, too many to keep beside a report.
    /// </summary>
    public override string Log()
    {
        lock (_output)
        {
            var omitted = LogLines - HeadLines - _output.Count;
            return omitted > 0
                ? $"{_head}---- {omitted.ToString("N0", CultureInfo.InvariantCulture)} lines left out ----\n{string.Join('\n', _output)}\n"
                : $"{_head}{string.Join('\n', _output.Skip((int)Math.Max(0, HeadLines - (LogLines - _output.Count))))}\n";
        }
    }

    private const int HeadLines = 500;

    public override async Task<ServerReading> ReadAsync()
    {
        var snapshot = await _diagnostics.GetFromJsonAsync<RuntimeSnapshot>(new Uri(Http1, "debug/runtime"))
            ?? throw new InvalidOperationException("Empty /debug/runtime answer");
        var tree = ProcessMemory.Tree(Process.Id);
        return new ServerReading(snapshot.TotalAllocatedBytes, ProcessMemory.PeakBytes(tree), ProcessMemory.CpuMilliseconds(tree));
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
            LogLines++;
            if (LogLines <= HeadLines)
            {
                _head.Append(line).Append('\n');
            }

            _output.Add(line);
            if (_output.Count > 1_000)
            {
                _output.RemoveRange(0, 500);
            }
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

    /// <summary>The overrides as the report's table rows.</summary>
    public static string OverridesTable() => string.Join('\n', Overrides.Select(o =>
        string.Create(CultureInfo.InvariantCulture, $"| `{o.Key}` | `{o.Value}` | {o.Why} |")));
}
