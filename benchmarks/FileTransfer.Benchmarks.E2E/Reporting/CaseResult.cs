namespace FileTransfer.Benchmarks.E2E.Reporting;

/// <summary>
/// One measured run. Nullable figures are those a case cannot measure (nginx's allocations, a
/// client's allocations outside this process, latency outside the fixed-rate runs). Round is the
/// round-robin pass over the planned rows this run belongs to (1-based): runs of one round were
/// taken back to back. Load1 is the machine's 1-minute load average when the run ended.
/// </summary>
internal sealed record Sample(
    int Round,
    TimeSpan Duration,
    long Bytes,
    long Requests,
    long? ServerAllocatedBytes,
    long ServerPeakWorkingSetBytes,
    double ServerCpuMilliseconds,
    long? ClientAllocatedBytes,
    double Load1,
    Latency? Latency = null)
{
    public double MegabytesPerSecond => Bytes / 1e6 / Duration.TotalSeconds;

    public double RequestsPerSecond => Requests / Duration.TotalSeconds;

    /// <summary>Server CPU seconds per GiB moved.</summary>
    public double? CpuSecondsPerGiB => Bytes == 0 ? null : ServerCpuMilliseconds / 1000 / (Bytes / (double)(1L << 30));

    /// <summary>Server CPU microseconds per request.</summary>
    public double CpuMicrosecondsPerRequest => ServerCpuMilliseconds * 1000 / Requests;

    /// <summary>Server bytes allocated per GiB moved, in MB.</summary>
    public double? AllocatedMegabytesPerGiB => Bytes == 0 ? null : ServerAllocatedBytes / 1e6 / (Bytes / (double)(1L << 30));
}

/// <summary>Latency percentiles of a fixed-rate run, and the rate it was asked for.</summary>
internal sealed record Latency(double TargetRate, double P50Milliseconds, double P99Milliseconds, double MaxMilliseconds);

/// <summary>Every run of one case against one server, or why it could not run.</summary>
internal sealed class CaseResult(string group, string name, string server, string protocol, string client)
{
    public string Group { get; } = group;

    /// <summary>Row label, e.g. "download 1 GiB".</summary>
    public string Name { get; } = name;

    public string Server { get; } = server;

    public string Protocol { get; } = protocol;

    public string Client { get; } = client;

    public List<Sample> Samples { get; } = [];

    /// <summary>Set when the case failed (wrong bytes, error status, tool failure): the harness exits non-zero.</summary>
    public string? Error { get; set; }

    /// <summary>Set when the case was not run for a reason outside the harness (e.g. a peer not installed).</summary>
    public string? Skipped { get; set; }

    /// <summary>Runs repeated because nginx's HTTP/2 flood guard closed the connection (see NginxServer.FloodClosures).</summary>
    public int NginxFloodRetries { get; set; }

    /// <summary>The gRPC chunk size of a sweep row.</summary>
    public int? ChunkBytes { get; init; }

    /// <summary>Reported per request (requests/s, CPU per request) rather than per transfer.</summary>
    public bool PerRequest { get; init; }

    /// <summary>Transfers in flight at once in one run (concurrency rows), else 1.</summary>
    public int Concurrency { get; init; } = 1;

    public bool Measured => Error is null && Samples.Count > 0;

    public string Key => $"{Name}|{Server}|{Protocol}|{Client}";

    public Spread Of(Func<Sample, double?> figure)
    {
        var values = Samples.Select(figure).Where(v => v.HasValue && !double.IsNaN(v.Value)).Select(v => v!.Value).Order().ToArray();
        return values.Length == 0 ? Spread.None : new Spread(Median(values), values[0], values[^1], values.Length);
    }

    public static double Median(double[] sorted) =>
        sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
}

/// <summary>Median with the smallest and largest value seen, over <paramref name="Count"/> runs.</summary>
internal sealed record Spread(double Median, double Min, double Max, int Count)
{
    public static Spread None { get; } = new(double.NaN, double.NaN, double.NaN, 0);

    public bool IsNone => Count == 0;

    /// <summary>"median (min–max)".</summary>
    public string Format(string format, double scale = 1) => IsNone
        ? "–"
        : $"{(Median / scale).ToString(format, System.Globalization.CultureInfo.InvariantCulture)} "
          + $"({(Min / scale).ToString(format, System.Globalization.CultureInfo.InvariantCulture)}–{(Max / scale).ToString(format, System.Globalization.CultureInfo.InvariantCulture)})";
}
