using System.Globalization;

namespace FileTransfer.Benchmarks.E2E;

/// <summary>Command-line options; <c>--help</c> prints them.</summary>
internal sealed class HarnessOptions
{
    public const string Usage = """
        FileTransfer end-to-end benchmark: our server (started from its built dll) next to nginx, on loopback.

          --size SIZE              large-file size for cases 1, 2 and uploads (default 1GiB; units B, KiB, MiB, GiB, KB, MB, GB)
          --runs N                 measured runs per case after one verified warm-up (default 5)
          --cases LIST             comma list of: download, nginx, upload, small, concurrency, grpc, sweep, unary (default all)
                                   grpc: DownloadFile (product and "gRPC naive") and UploadFile next to REST HTTP/1.1 and HTTP/2,
                                   all from this process; sweep: gRPC chunk sizes; unary: GetFileInfo calls on one channel
          --concurrent N           simultaneous transfers in the concurrency case (default 64)
          --concurrent-size SIZE   size of each of them (default 256MiB)
          --small-seconds N        duration of each small-file load run (default 5)
          --grpc-upload-chunk SIZE chunk size the gRPC upload client sends (default 32KiB, the contract's default)
          --grpc-client-window SIZE  fixed HTTP/2 initial stream window of the gRPC client (default: SocketsHttpHandler's dynamic window)
          --sweep-chunks LIST      chunk sizes of the sweep (default 16B,32B,...,4MiB in powers of two)
          --sweep-size SIZE        largest file of the sweep (default 256MiB)
          --sweep-messages N       the sweep's file for chunk size C is min(sweep-size, C × N) bytes (default 65536)
          --sweep-server DLL       serve the sweep's downloads from another build of the server; the product refuses
                                   Grpc:ChunkSizeBytes below 1 KiB, so download sizes below it run only with a build
                                   that accepts them (commit e989fca); without it they are skipped, uploads still run
          --unary-calls N          GetFileInfo calls per measured run of the unary case (default 100000)
          --server-env KEY=VALUE   extra environment for our server, repeatable
          --baseline-env KEY=VALUE start a second copy of our server ("ours-before") with this environment, repeatable:
                                   its rows sit next to ours in cases 1, 2, 3, 5, 7, 8 and 10, measured in the same run (before/after rows)
          --baseline-server DLL    start "ours-before" from another build of the server (e.g. the commit before a change,
                                   built in a second worktree), with the --baseline-env settings if any
          --out DIR                write report.md, results.dat and results.png there (default: print only)
          --work DIR               where test files and server roots go (default: a new folder under /tmp)
          --smoke                  tiny files, one run, no load tools' durations: proves every case completes with correct bytes
        """;

    public long Size { get; private set; } = 1L << 30;
    public int Runs { get; private set; } = 5;
    public HashSet<string> Cases { get; private set; } = ["download", "nginx", "upload", "small", "concurrency", "grpc", "sweep", "unary"];
    public int Concurrent { get; private set; } = 64;
    public long ConcurrentSize { get; private set; } = 256L << 20;
    public int SmallSeconds { get; private set; } = 5;
    public int GrpcUploadChunk { get; private set; } = 32 * 1024;
    public int? GrpcClientWindow { get; private set; }
    public IReadOnlyList<int> SweepChunks { get; private set; } = [.. Enumerable.Range(4, 19).Select(power => 1 << power)];
    public long SweepSize { get; private set; } = 256L << 20;
    public int SweepMessages { get; private set; } = 65536;
    public int UnaryCalls { get; private set; } = 100_000;
    public Dictionary<string, string> ServerEnvironment { get; } = [];
    public Dictionary<string, string> BaselineEnvironment { get; } = [];
    public string? BaselineServer { get; private set; }
    public string? SweepServer { get; private set; }
    public string? OutDirectory { get; private set; }
    public string? WorkDirectory { get; private set; }
    public bool Smoke { get; private set; }
    public IReadOnlyList<string> CommandLine { get; private set; } = [];

    public static HarnessOptions Parse(string[] args)
    {
        var options = new HarnessOptions { CommandLine = args };
        for (var i = 0; i < args.Length; i++)
        {
            string Next() => i + 1 < args.Length ? args[++i] : throw new ArgumentException($"{args[i]} needs a value");
            switch (args[i])
            {
                case "--size": options.Size = ParseSize(Next()); break;
                case "--runs": options.Runs = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--cases": options.Cases = [.. Next().Split(',', StringSplitOptions.RemoveEmptyEntries)]; break;
                case "--concurrent": options.Concurrent = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--concurrent-size": options.ConcurrentSize = ParseSize(Next()); break;
                case "--small-seconds": options.SmallSeconds = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--grpc-upload-chunk": options.GrpcUploadChunk = (int)ParseSize(Next()); break;
                case "--grpc-client-window": options.GrpcClientWindow = (int)ParseSize(Next()); break;
                case "--sweep-chunks": options.SweepChunks = [.. Next().Split(',', StringSplitOptions.RemoveEmptyEntries).Select(c => (int)ParseSize(c))]; break;
                case "--sweep-size": options.SweepSize = ParseSize(Next()); break;
                case "--sweep-messages": options.SweepMessages = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--unary-calls": options.UnaryCalls = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--server-env": AddPair(options.ServerEnvironment, Next()); break;
                case "--baseline-env": AddPair(options.BaselineEnvironment, Next()); break;
                case "--baseline-server": options.BaselineServer = Path.GetFullPath(Next()); break;
                case "--sweep-server": options.SweepServer = Path.GetFullPath(Next()); break;
                case "--out": options.OutDirectory = Path.GetFullPath(Next()); break;
                case "--work": options.WorkDirectory = Path.GetFullPath(Next()); break;
                case "--smoke": options.Smoke = true; break;
                default: throw new ArgumentException($"Unknown option {args[i]}");
            }
        }

        if (options.Smoke)
        {
            // Small enough for CI (well under a minute), large enough to span many read chunks and frames.
            options.Size = Math.Min(options.Size, 3L * 1024 * 1024 + 12345);
            options.ConcurrentSize = Math.Min(options.ConcurrentSize, 1L << 20);
            options.Concurrent = Math.Min(options.Concurrent, 8);
            options.Runs = 1;
            options.SmallSeconds = 1;
            // The sweep's ends (16 B for uploads, 1 KiB for the product's downloads) and the default,
            // each on a file of at most 256 messages.
            options.SweepChunks = [.. options.SweepChunks.Where(c => c is 16 or 1024 or 32 * 1024 or 4 * 1024 * 1024)];
            options.SweepMessages = Math.Min(options.SweepMessages, 256);
            options.SweepSize = Math.Min(options.SweepSize, options.Size);
            options.UnaryCalls = Math.Min(options.UnaryCalls, 200);
        }

        return options;
    }

    private static void AddPair(Dictionary<string, string> environment, string text)
    {
        var pair = text.Split('=', 2);
        environment[pair[0]] = pair.Length == 2 ? pair[1] : "";
    }

    public static long ParseSize(string text)
    {
        var units = new (string Suffix, long Factor)[]
        {
            ("GiB", 1L << 30), ("MiB", 1L << 20), ("KiB", 1L << 10),
            ("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1_000), ("B", 1),
        };
        foreach (var (suffix, factor) in units)
        {
            if (text.EndsWith(suffix, StringComparison.OrdinalIgnoreCase))
            {
                return (long)(double.Parse(text[..^suffix.Length], CultureInfo.InvariantCulture) * factor);
            }
        }

        return long.Parse(text, CultureInfo.InvariantCulture);
    }
}
