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

    public OurServer Ours { get; set; } = null!;

    public NginxServer? Nginx { get; set; }

    /// <summary>A second copy of our server with <c>--baseline-env</c> settings, for before/after rows; usually null.</summary>
    public OurServer? Baseline { get; set; }

    /// <summary>The "gRPC naive" baseline service (benchmarks/FileTransfer.Benchmarks.NaiveGrpc), started for the gRPC cases.</summary>
    public OurServer? Naive { get; set; }

    /// <summary>Why nginx is not there, when it is not.</summary>
    public string? NginxMissing { get; set; }

    public TestFile Large { get; set; } = null!;

    public TestFile Concurrent { get; set; } = null!;

    public TestFile Small1K { get; set; } = null!;

    public TestFile Small64K { get; set; } = null!;

    /// <summary>Where the test files are generated before they are linked into the servers' roots.</summary>
    public string FilesDirectory => Path.Combine(WorkDirectory, "files");

    /// <summary>Our server's root (also the naive service's and the sweep servers').</summary>
    public string OursRoot => Path.Combine(WorkDirectory, "ours-root");

    /// <summary>The file's name as the gRPC contract names it (relative to the storage root).</summary>
    public static string GrpcName(TestFile file) => $"{Folder}/{file.Name}";

    /// <summary>Set once a probe PUT shows whether this build of our server accepts uploads.</summary>
    public string? UploadsMissing { get; set; }

    public static string Size(long bytes) => bytes switch
    {
        >= 1L << 30 when bytes % (1L << 30) == 0 => $"{bytes >> 30} GiB",
        >= 1L << 20 when bytes % (1L << 20) == 0 => $"{bytes >> 20} MiB",
        >= 1L << 10 when bytes % (1L << 10) == 0 => $"{bytes >> 10} KiB",
        _ => $"{bytes} B",
    };

    /// <summary>A gRPC client (its own channel) for the server's h2c port, with the <c>--grpc-client-window</c> setting.</summary>
    public Clients.GrpcClient NewGrpcClient(ServerUnderTest server) => new(server.Http2, Options.GrpcClientWindow);

    public Uri Url(ServerUnderTest server, bool http2, TestFile file) => server.FileUrl(http2, $"{Folder}/{file.Name}");

    /// <summary>Both servers by name; nginx is null when it could not be started.</summary>
    public IEnumerable<(string Name, ServerUnderTest? Server)> BothServers => [("ours", Ours), ("nginx", Nginx)];

    /// <summary>Ours, the baseline copy when there is one, and nginx: for the download cases.</summary>
    public IEnumerable<(string Name, ServerUnderTest? Server)> DownloadServers =>
        Baseline is null ? BothServers : [("ours", Ours), (Baseline.Name, Baseline), ("nginx", Nginx)];

    /// <summary>Queues a case against <paramref name="server"/>, or records why nginx is not there.</summary>
    public void Plan(CaseResult result, ServerUnderTest? server, Func<ServerUnderTest, Func<bool, Task<Transfer>>> transfer)
    {
        if (server is null)
        {
            Measurer.Skip(result, NginxMissing ?? "nginx not started");
            return;
        }

        Measurer.Plan(result, server, transfer(server));
    }
}
