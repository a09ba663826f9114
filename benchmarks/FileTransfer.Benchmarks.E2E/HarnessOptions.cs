using System.Globalization;

namespace FileTransfer.Benchmarks.E2E;

/// <summary>Command-line options; <c>--help</c> prints them.</summary>
internal sealed class HarnessOptions
{
    public const string Usage = """
        FileTransfer end-to-end benchmark: our server (started from its built dll) next to nginx, on loopback.

          --size SIZE              large-file size for cases 1, 2 and uploads (default 1GiB; units B, KiB, MiB, GiB, KB, MB, GB)
          --runs N                 measured runs per case after one verified warm-up (default 5)
          --cases LIST             comma list of: download, nginx, upload, small, concurrency (default all)
          --concurrent N           simultaneous transfers in the concurrency case (default 64)
          --concurrent-size SIZE   size of each of them (default 256MiB)
          --small-seconds N        duration of each small-file load run (default 5)
          --server-env KEY=VALUE   extra environment for our server, repeatable
          --baseline-env KEY=VALUE start a second copy of our server ("ours-before") with this environment, repeatable:
                                   its rows sit next to ours in cases 1, 2 and 5, measured in the same run (before/after rows)
          --out DIR                write report.md, results.dat and results.png there (default: print only)
          --work DIR               where test files and server roots go (default: a new folder under /tmp)
          --smoke                  tiny files, one run, no load tools' durations: proves every case completes with correct bytes
        """;

    public long Size { get; private set; } = 1L << 30;
    public int Runs { get; private set; } = 5;
    public HashSet<string> Cases { get; private set; } = ["download", "nginx", "upload", "small", "concurrency"];
    public int Concurrent { get; private set; } = 64;
    public long ConcurrentSize { get; private set; } = 256L << 20;
    public int SmallSeconds { get; private set; } = 5;
    public Dictionary<string, string> ServerEnvironment { get; } = [];
    public Dictionary<string, string> BaselineEnvironment { get; } = [];
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
                case "--server-env": AddPair(options.ServerEnvironment, Next()); break;
                case "--baseline-env": AddPair(options.BaselineEnvironment, Next()); break;
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
