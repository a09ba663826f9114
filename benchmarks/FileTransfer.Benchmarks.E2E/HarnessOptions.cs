using System.Globalization;
using FileTransfer.Benchmarks.E2E.Cases;

namespace FileTransfer.Benchmarks.E2E;

/// <summary>Command-line options; <c>--help</c> prints them.</summary>
internal sealed class HarnessOptions
{
    public static string Usage => $"""
        FileTransfer end-to-end benchmark: our server as shipped (started from its built dll) next to nginx
        (access_log off and on), the published gRPC services and a Python grpcio server, on loopback.
        The whole run, with the machine check and the report folder: bash benchmarks/run.sh

          --size SIZE              large file of cases 1-4 and 8 (default 1GiB; units B, KiB, MiB, GiB, KB, MB, GB)
          --table-size SIZE        file of the published table, case 7 (default 4GiB)
          --runs N                 measured runs per case after one verified warm-up, round-robin (default 5; fewer is not a result)
          --cases LIST             comma list of (default all):
        {string.Join('\n', CaseCatalog.All.Select(c => $"                                     {c.Name,-12} {c.Description}"))}
          --concurrent LIST        simultaneous downloads of case 6 (default 64,256)
          --concurrent-uploads N   simultaneous uploads of case 6 (default 64)
          --concurrent-size SIZE   size of each of them (default 64MiB)
          --small-seconds N        duration of each small-file load run (default 5)
          --fixed-rate N           requests per second of the fixed-rate small-file runs (default 2000)
          --max-load X             1-minute load average above which the report says the machine was not quiet (default 1.0)
          --grpc-upload-chunk SIZE chunk size the harness's gRPC upload client sends (default 32KiB, the contract's default)
          --grpc-client-window SIZE  fixed HTTP/2 initial stream window of the harness's gRPC client (default: dynamic)
          --sweep-chunks LIST      chunk sizes of the sweep (default 16B,32B,...,4MiB in powers of two)
          --sweep-size SIZE        largest file of the sweep (default 256MiB)
          --sweep-messages N       the sweep's file for chunk size C is min(sweep-size, C × N) bytes (default 65536)
          --sweep-server DLL       serve the sweep's downloads from another build of the server (one that accepts chunks below 1 KiB)
          --unary-calls N          GetFileInfo calls per measured run of the unary case (default 100000)
          --server-env KEY=VALUE   extra environment for our server, repeatable (the report lists it as a deviation from shipped)
          --baseline-env KEY=VALUE start a second copy of our server ("ours-before") with this environment, repeatable
          --server PATH            run "ours" from this build of the server: a dll, or the native executable of a Native AOT
                                   publish (scripts/publish-server.sh) (default: the solution's Release build)
          --kestrel-bare PATH      add "kestrel-bare" to the small case: Kestrel and a handler calling SendFileAsync, nothing else
                                   (benchmarks/FileTransfer.Benchmarks.KestrelBare; its native executable, which run.sh publishes
                                   to artifacts/kestrel-bare/, or a dll), the floor of ours's cost per request (default: not run)
          --baseline-server PATH   start "ours-before" from another build of the server (e.g. the commit before a change; a dll
                                   or a native executable)
          --baseline-cli FILE      the clients case's CLI rows also with this filetransfer executable, round-robin ("filetransfer (CLI, before)":
                                   the native CLI of the commit before a change, scripts/publish-cli.sh in a second clone)
          --out DIR                write report.md, runs.csv, peers/, logs/ and the charts there (default: print the report only)
          --work DIR               where test files and server roots go (default: a new folder under /tmp)
          --smoke                  tiny files, one run: proves every case completes with correct bytes (CI); not a result
        """;

    public long Size { get; private set; } = 1L << 30;
    public long TableSize { get; private set; } = 4L << 30;
    public int Runs { get; private set; } = 5;
    public HashSet<string> Cases { get; private set; } = [.. CaseCatalog.All.Select(c => c.Name)];
    public IReadOnlyList<int> ConcurrentCounts { get; private set; } = [64, 256];
    public int ConcurrentUploads { get; private set; } = 64;
    public long ConcurrentSize { get; private set; } = 64L << 20;
    public int SmallSeconds { get; private set; } = 5;
    public double FixedRate { get; private set; } = 2000;
    public double MaxLoad { get; private set; } = 1.0;
    public int GrpcUploadChunk { get; private set; } = 32 * 1024;
    public int? GrpcClientWindow { get; private set; }
    public IReadOnlyList<int> SweepChunks { get; private set; } = [.. Enumerable.Range(4, 19).Select(power => 1 << power)];
    public long SweepSize { get; private set; } = 256L << 20;
    public int SweepMessages { get; private set; } = 65536;
    public int UnaryCalls { get; private set; } = 100_000;
    public Dictionary<string, string> ServerEnvironment { get; } = [];
    public Dictionary<string, string> BaselineEnvironment { get; } = [];
    public string? BaselineServer { get; private set; }

    /// <summary>The build "ours" runs from (a dll or a native executable); null for the solution's Release build.</summary>
    public string? Server { get; private set; }
    /// <summary>The kestrel-bare build the small case also runs (a native executable or a dll); null: not run.</summary>
    public string? KestrelBare { get; private set; }
    public string? BaselineCli { get; private set; }
    public string? SweepServer { get; private set; }
    public string? OutDirectory { get; private set; }
    public string? WorkDirectory { get; private set; }
    public bool Smoke { get; private set; }
    public IReadOnlyList<string> CommandLine { get; private set; } = [];

    /// <summary>The least number of runs whose spread the report judges a target by.</summary>
    public const int MinimumRuns = 5;

    public static HarnessOptions Parse(string[] args)
    {
        var options = new HarnessOptions { CommandLine = args };
        for (var i = 0; i < args.Length; i++)
        {
            string Next() => i + 1 < args.Length ? args[++i] : throw new ArgumentException($"{args[i]} needs a value");
            switch (args[i])
            {
                case "--size": options.Size = ParseSize(Next()); break;
                case "--table-size": options.TableSize = ParseSize(Next()); break;
                case "--runs": options.Runs = Math.Max(1, int.Parse(Next(), CultureInfo.InvariantCulture)); break;
                case "--cases": options.Cases = [.. Next().Split(',', StringSplitOptions.RemoveEmptyEntries)]; break;
                case "--concurrent": options.ConcurrentCounts = [.. Next().Split(',', StringSplitOptions.RemoveEmptyEntries).Select(c => int.Parse(c, CultureInfo.InvariantCulture))]; break;
                case "--concurrent-uploads": options.ConcurrentUploads = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--concurrent-size": options.ConcurrentSize = ParseSize(Next()); break;
                case "--small-seconds": options.SmallSeconds = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--fixed-rate": options.FixedRate = double.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--max-load": options.MaxLoad = double.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--grpc-upload-chunk": options.GrpcUploadChunk = (int)ParseSize(Next()); break;
                case "--grpc-client-window": options.GrpcClientWindow = (int)ParseSize(Next()); break;
                case "--sweep-chunks": options.SweepChunks = [.. Next().Split(',', StringSplitOptions.RemoveEmptyEntries).Select(c => (int)ParseSize(c))]; break;
                case "--sweep-size": options.SweepSize = ParseSize(Next()); break;
                case "--sweep-messages": options.SweepMessages = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--unary-calls": options.UnaryCalls = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--server-env": AddPair(options.ServerEnvironment, Next()); break;
                case "--baseline-env": AddPair(options.BaselineEnvironment, Next()); break;
                case "--baseline-server": options.BaselineServer = Path.GetFullPath(Next()); break;
                case "--server": options.Server = Path.GetFullPath(Next()); break;
                case "--kestrel-bare": options.KestrelBare = Path.GetFullPath(Next()); break;
                case "--baseline-cli": options.BaselineCli = Path.GetFullPath(Next()); break;
                case "--sweep-server": options.SweepServer = Path.GetFullPath(Next()); break;
                case "--out": options.OutDirectory = Path.GetFullPath(Next()); break;
                case "--work": options.WorkDirectory = Path.GetFullPath(Next()); break;
                case "--smoke": options.Smoke = true; break;
                default: throw new ArgumentException($"Unknown option {args[i]}");
            }
        }

        var unknown = options.Cases.Where(c => CaseCatalog.All.All(k => k.Name != c)).ToList();
        if (unknown.Count > 0)
        {
            throw new ArgumentException($"Unknown case(s) {string.Join(", ", unknown)}; known: {string.Join(", ", CaseCatalog.All.Select(c => c.Name))}");
        }

        if (options.Smoke)
        {
            // Small enough for CI, large enough to span many read chunks and frames.
            options.Size = Math.Min(options.Size, 3L * 1024 * 1024 + 12345);
            options.TableSize = Math.Min(options.TableSize, options.Size);
            options.ConcurrentSize = Math.Min(options.ConcurrentSize, 1L << 20);
            options.ConcurrentCounts = [.. options.ConcurrentCounts.Select(c => Math.Min(c, 8)).Distinct()];
            options.ConcurrentUploads = Math.Min(options.ConcurrentUploads, 8);
            options.Runs = 1;
            options.SmallSeconds = 1;
            options.FixedRate = Math.Min(options.FixedRate, 200);
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
