using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>The servers, files and measurer every case shares.</summary>
internal sealed class BenchContext(HarnessOptions options, Measurer measurer, string workDirectory)
{
    /// <summary>Folder (relative to each server's root and URL) that holds the test files.</summary>
    public const string Folder = "bench";

    public HarnessOptions Options { get; } = options;

    public Measurer Measurer { get; } = measurer;

    public string WorkDirectory { get; } = workDirectory;

    /// <summary>The repository this harness was built from (where FileTransfer.sln is).</summary>
    public string Repository { get; } = Builds.Repository();

    public OurServer Ours { get; set; } = null!;

    /// <summary>nginx with <c>access_log off</c>.</summary>
    public NginxServer? Nginx { get; set; }

    /// <summary>nginx with a buffered access log.</summary>
    public NginxServer? NginxLog { get; set; }

    /// <summary>A second copy of our server with <c>--baseline-env</c> settings, for before/after rows; usually null.</summary>
    public OurServer? Baseline { get; set; }

    /// <summary>The published "gRPC naive" service (benchmarks/FileTransfer.Benchmarks.NaiveGrpc), started for the gRPC cases.</summary>
    public OurServer? Naive { get; set; }

    /// <summary>The published "gRPC optimized" service (the same project, Naive__Mode=optimized).</summary>
    public OurServer? Optimized { get; set; }

    /// <summary>The gRPC reference server in another stack (Python grpcio, C-core); null with <see cref="PythonMissing"/> set when it cannot run.</summary>
    public PythonGrpcServer? Python { get; set; }

    /// <summary>Kestrel and a handler calling SendFileAsync (<c>--kestrel-bare</c>), started for the small case; usually null.</summary>
    public KestrelBareServer? KestrelBare { get; set; }

    /// <summary>Copies of ours on the S3 backend (the s3 case starts them when an RGW is named by FT_S3_*).</summary>
    public List<OurServer> S3Servers { get; } = [];

    /// <summary>Why nginx is not there, when it is not.</summary>
    public string? NginxMissing { get; set; }

    /// <summary>Why the Python reference server is not there, when it is not.</summary>
    public string? PythonMissing { get; set; }

    public TestFile Large { get; set; } = null!;

    /// <summary>The file of the published 4 GB table (<c>--table-size</c>); the large file when the sizes agree.</summary>
    public TestFile Table { get; set; } = null!;

    public TestFile Concurrent { get; set; } = null!;

    public TestFile Small1K { get; set; } = null!;

    public TestFile Small64K { get; set; } = null!;

    /// <summary>Where the test files are generated before they are linked into the servers' roots.</summary>
    public string FilesDirectory => Path.Combine(WorkDirectory, "files");

    /// <summary>Our server's root (also the published services', the Python server's and the sweep servers').</summary>
    public string OursRoot => Path.Combine(WorkDirectory, "ours-root");

    /// <summary>The file's name as the gRPC contract names it (relative to the storage root).</summary>
    public static string GrpcName(TestFile file) => $"{Folder}/{file.Name}";

    public static string Size(long bytes) => bytes switch
    {
        >= 1L << 30 when bytes % (1L << 30) == 0 => $"{bytes >> 30} GiB",
        >= 1L << 20 when bytes % (1L << 20) == 0 => $"{bytes >> 20} MiB",
        >= 1L << 10 when bytes % (1L << 10) == 0 => $"{bytes >> 10} KiB",
        >= 1_000_000_000 when bytes % 1_000_000_000 == 0 => $"{bytes / 1_000_000_000} GB",
        _ => $"{bytes} B",
    };

    /// <summary>A gRPC client (its own channel) for the server's h2c port, with the <c>--grpc-client-window</c> setting.</summary>
    public Clients.GrpcClient NewGrpcClient(ServerUnderTest server) => new(server.Http2, Options.GrpcClientWindow);

    public Uri Url(ServerUnderTest server, bool http2, TestFile file) => server.FileUrl(http2, $"{Folder}/{file.Name}");

    /// <summary>The HTTP servers by name: ours and both nginx; nginx is null when it could not be started.</summary>
    public IEnumerable<(string Name, ServerUnderTest? Server)> HttpServers => [("ours", Ours), (NginxServer.Plain, Nginx), (NginxServer.Logging, NginxLog)];

    /// <summary>Ours, the baseline copy when there is one, and both nginx: for the large-file and small-file cases.</summary>
    public IEnumerable<(string Name, ServerUnderTest? Server)> DownloadServers =>
        Baseline is null ? HttpServers : [("ours", Ours), (Baseline.Name, Baseline), (NginxServer.Plain, Nginx), (NginxServer.Logging, NginxLog)];

    /// <summary>The download servers and, after them, kestrel-bare when it runs: for the small-file case only.</summary>
    public IEnumerable<(string Name, ServerUnderTest? Server)> SmallFileServers =>
        KestrelBare is null ? DownloadServers : [.. DownloadServers, (KestrelBare.Name, KestrelBare)];

    /// <summary>Every server a case may run against, for the report's peers/ and logs/ folders.</summary>
    public IEnumerable<ServerUnderTest> AllServers =>
        new ServerUnderTest?[] { Ours, Baseline, Naive, Optimized, Python, Nginx, NginxLog, KestrelBare }.OfType<ServerUnderTest>().Concat(S3Servers);

    /// <summary>The build "ours" runs from: <c>--server</c>, else the solution's Release build.</summary>
    public string OursBuild => Options.Server ?? Builds.ServerDll();

    /// <summary>Starts a copy of the product from <paramref name="dll"/> with <c>--server-env</c>, then <paramref name="extra"/>.</summary>
    public Task<OurServer> StartOursAsync(string name, string dll, IReadOnlyDictionary<string, string> extra)
    {
        var environment = new Dictionary<string, string>(Options.ServerEnvironment);
        foreach (var (key, value) in extra)
        {
            environment[key] = value;
        }

        return OurServer.StartProductAsync(name, dll, OursRoot, environment);
    }

    /// <summary>
    /// Starts ours (and ours-before) afresh, so that a case's memory figures start from a new process
    /// that only the case's own warm-up has run in, whatever cases ran before it.
    /// </summary>
    public async Task RestartOursAsync()
    {
        KeepLog(Ours);
        await Ours.DisposeAsync();
        Ours = await OurServer.StartProductAsync("ours", OursBuild, OursRoot, Options.ServerEnvironment);
        if (Baseline is not null)
        {
            KeepLog(Baseline);
            await Baseline.DisposeAsync();
            Baseline = await StartOursAsync("ours-before", Options.BaselineServer ?? OursBuild, Options.BaselineEnvironment);
        }
    }

    /// <summary>
    /// Starts another process of ours (<c>ours</c>) or of the baseline (<paramref name="name"/> of
    /// <see cref="Baseline"/>) with the same settings, beside the running ones; the caller disposes it.
    /// </summary>
    public Task<OurServer> StartFreshAsync(string name) => name == "ours"
        ? OurServer.StartProductAsync("ours", OursBuild, OursRoot, Options.ServerEnvironment)
        : StartOursAsync(name, Options.BaselineServer ?? OursBuild, Options.BaselineEnvironment);

    /// <summary>What the earlier processes of a restarted server logged, by server name.</summary>
    public Dictionary<string, System.Text.StringBuilder> EarlierLogs { get; } = [];

    public void KeepLog(ServerUnderTest server)
    {
        if (!EarlierLogs.TryGetValue(server.Name, out var log))
        {
            EarlierLogs[server.Name] = log = new();
        }

        log.Append(server.Log()).Append("---- restarted ----\n");
    }

    /// <summary>Queues a case against <paramref name="server"/>, or records why its server is not there.</summary>
    public void Plan(CaseResult result, ServerUnderTest? server, Func<ServerUnderTest, Func<bool, Task<Transfer>>> transfer)
    {
        if (server is null)
        {
            Measurer.Skip(result, result.Server switch
            {
                PythonGrpcServer.ServerName => PythonMissing ?? "not started",
                NginxServer.Plain or NginxServer.Logging => NginxMissing ?? "nginx not started",
                _ => "not started",
            });
            return;
        }

        Measurer.Plan(result, server, transfer(server));
    }
}
