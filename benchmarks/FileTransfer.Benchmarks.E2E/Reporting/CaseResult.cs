namespace FileTransfer.Benchmarks.E2E.Reporting;

/// <summary>One measured run. Nullable figures are those a case cannot measure (nginx allocations, curl's client).</summary>
internal sealed record Sample(
    TimeSpan Duration,
    long Bytes,
    long Requests,
    long? ServerAllocatedBytes,
    long ServerPeakWorkingSetBytes,
    double ServerCpuMilliseconds,
    long? ClientAllocatedBytes)
{
    public double MegabytesPerSecond => Bytes / 1e6 / Duration.TotalSeconds;

    public double RequestsPerSecond => Requests / Duration.TotalSeconds;
}

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

    /// <summary>Set when the case was not run for a reason outside the harness (e.g. the upload API not on this build).</summary>
    public string? Skipped { get; set; }

    /// <summary>Runs repeated because nginx's HTTP/2 flood guard closed the connection (see NginxServer.FloodClosures).</summary>
    public int NginxFloodRetries { get; set; }

    /// <summary>The gRPC chunk size of a sweep row.</summary>
    public int? ChunkBytes { get; init; }

    /// <summary>Reported per request (requests/s, bytes and CPU per request) rather than per transfer.</summary>
    public bool PerRequest { get; init; }

    public string Key => $"{Name}|{Server}|{Protocol}|{Client}";

    public Spread Of(Func<Sample, double?> figure)
    {
        var values = Samples.Select(figure).Where(v => v.HasValue).Select(v => v!.Value).Order().ToArray();
        return values.Length == 0 ? Spread.None : new Spread(Median(values), values[0], values[^1]);
    }

    private static double Median(double[] sorted) =>
        sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
}

/// <summary>Median with the smallest and largest value seen.</summary>
internal sealed record Spread(double Median, double Min, double Max)
{
    public static Spread None { get; } = new(double.NaN, double.NaN, double.NaN);

    public bool IsNone => double.IsNaN(Median);

    public string Format(string format, double scale = 1) => IsNone
        ? "–"
        : $"{(Median / scale).ToString(format, System.Globalization.CultureInfo.InvariantCulture)} "
          + $"({(Min / scale).ToString(format, System.Globalization.CultureInfo.InvariantCulture)}–{(Max / scale).ToString(format, System.Globalization.CultureInfo.InvariantCulture)})";
}
