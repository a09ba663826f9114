using System.Globalization;
using FileTransfer.Benchmarks.E2E.Cases;
using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;

namespace FileTransfer.Benchmarks.E2E.Reporting;

/// <summary>
/// One line of a targets table: what was measured over the runs, and whether the whole spread clears
/// the target. Verdict: "yes", "**no**", "not judged: why", or "–" for a line without a target.
/// </summary>
internal sealed record TargetLine(string Label, string Target, string Measured, int Runs, string Verdict)
{
    public bool Met => Verdict == "yes";

    public bool Missed => Verdict == "**no**";
}

/// <summary>
/// The goals of issue 21, exactly as the issue states them, computed from this run's rows. A ratio is
/// taken round by round (run i of one row over run i of the other: the round-robin put them next to
/// each other), and the target is met only when every round's ratio clears it, over at least
/// <see cref="HarnessOptions.MinimumRuns"/> runs; a limit is met only when every run stays within it.
/// </summary>
internal sealed class Targets(IReadOnlyList<CaseResult> results, HarnessOptions options)
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    public IReadOnlyList<TargetLine> Goals()
    {
        const string C = ClientCases.Group, Grpc = GrpcCases.Grpc, H1 = ClientCases.RestHttp1;
        var size = BenchContext.Size(options.Size);
        CaseResult? Client(string name, string protocol, string client) =>
            Find(r => r.Group == C && r.Name.StartsWith(name, StringComparison.Ordinal) && r.Protocol == protocol && r.Client == client);
        var lines = new List<TargetLine>
        {
            AtLeast($"gRPC DownloadFile / REST HTTP/1.1 download, client library ({size})", 0.85,
                Client("download", Grpc, LibraryClient.Label), Client("download", H1, LibraryClient.Label), s => s.MegabytesPerSecond),
            AtLeast($"gRPC DownloadFile / REST HTTP/1.1 download, CLI `filetransfer download` ({size})", 0.85,
                Client("download", Grpc, CliClient.Label), Client("download", H1, CliClient.Label), s => s.MegabytesPerSecond),
            AtLeast($"gRPC UploadFile / REST PUT (HTTP/1.1), client library ({size})", 0.9,
                Client("upload", Grpc, LibraryClient.Label), Client("upload", H1, LibraryClient.Label), s => s.MegabytesPerSecond),
            AtLeast($"gRPC UploadFile / REST PUT (HTTP/1.1), CLI `filetransfer upload` ({size})", 0.9,
                Client("upload", Grpc, CliClient.Label), Client("upload", H1, CliClient.Label), s => s.MegabytesPerSecond),
            AtLeast($"`filetransfer download` (REST HTTP/1.1, digest verified) / curl to a file ({size})", 0.8,
                Client("download", H1, CliClient.Label), Client("download", H1, ClientCases.CurlToFile), s => s.MegabytesPerSecond),
        };

        var single = results.Where(r => r.Server == "ours" && r.Concurrency == 1 && !r.PerRequest && r.Name.StartsWith("download", StringComparison.Ordinal)
            && r.Group is DotnetDownloadCase.Group or NeutralDownloadCase.Group or ClientCases.Group).ToList();
        lines.Add(AtMost($"Server peak working set, one {size} download (ours, worst of {single.Count} rows: cases 1, 2, 4)", 100, "MB", single,
            s => s.ServerPeakWorkingSetBytes / 1e6, options.Size == 1L << 30 ? null : $"the goal is for 1 GiB; this run's file is {size}"));
        var concurrent = results.Where(r => r.Server == "ours" && r.Concurrency == 64).ToList();
        lines.Add(AtMost($"Server peak working set, 64 concurrent transfers (ours, worst of {concurrent.Count} rows: case 6)", 200, "MB", concurrent,
            s => s.ServerPeakWorkingSetBytes / 1e6, null));

        foreach (var file in new[] { "1 KiB", "64 KiB" })
        {
            foreach (var (protocol, client) in new[] { ("HTTP/1.1", SmallFileCases.WrkClient), ("HTTP/2", SmallFileCases.H2loadClient) })
            {
                CaseResult? Small(string server) => Find(r => r.Group == SmallFileCases.Group && r.Name == $"GET {file}" && r.Server == server && r.Protocol == protocol && r.Client == client);
                foreach (var nginx in new[] { NginxServer.Plain, NginxServer.Logging })
                {
                    lines.Add(AtLeast($"GET {file} requests/s, ours / {nginx} ({client.Split(' ')[0]}, {protocol}, API key on every request)", 0.8,
                        Small("ours"), Small(nginx), s => s.RequestsPerSecond));
                }
            }
        }

        return lines;
    }

    /// <summary>Ratios without a target that place ours: against nginx, the published services and the Python reference.</summary>
    public IReadOnlyList<TargetLine> Placement()
    {
        const string D2 = NeutralDownloadCase.Group, T = GrpcCases.DownloadGroup, U = GrpcCases.UploadGroup, Up = UploadCase.Group, Grpc = GrpcCases.Grpc;
        CaseResult? Row(string group, string server, string protocol, string client) =>
            Find(r => r.Group == group && r.Server == server && r.Protocol == protocol && r.Client.StartsWith(client, StringComparison.Ordinal));
        static double Speed(Sample s) => s.MegabytesPerSecond;
        var lines = new List<TargetLine>();
        foreach (var nginx in new[] { NginxServer.Plain, NginxServer.Logging })
        {
            lines.Add(Ratio($"REST HTTP/1.1 download, ours / {nginx} (curl)", Row(D2, "ours", "HTTP/1.1", "curl"), Row(D2, nginx, "HTTP/1.1", "curl"), Speed));
            lines.Add(Ratio($"REST HTTP/2 download, ours / {nginx} (h2load)", Row(D2, "ours", "HTTP/2", "h2load"), Row(D2, nginx, "HTTP/2", "h2load"), Speed));
            lines.Add(Ratio($"REST PUT (HTTP/1.1, curl -T), ours / {nginx} WebDAV", Row(Up, "ours", "HTTP/1.1", "curl -T"), Row(Up, nginx, "HTTP/1.1", "curl -T"), Speed));
        }

        var ours = Row(T, "ours", Grpc, GrpcClient.Label);
        lines.Add(Ratio("gRPC download, ours / REST HTTP/1.1 (same .NET process, harness clients)", ours, Row(T, "ours", "REST HTTP/1.1", ".NET"), Speed));
        lines.Add(Ratio("gRPC download, ours with a pooled-chunk client / REST HTTP/1.1", Find(r => r.Group == T && r.Server == "ours" && r.Client == GrpcClient.PooledLabel), Row(T, "ours", "REST HTTP/1.1", ".NET"), Speed));
        lines.Add(Ratio("gRPC download, ours / published naive", ours, Row(T, GrpcCases.Naive, Grpc, GrpcClient.Label), Speed));
        lines.Add(Ratio("gRPC download, ours / published optimized", ours, Row(T, GrpcCases.Optimized, Grpc, GrpcClient.Label), Speed));
        lines.Add(Ratio("gRPC download, ours / Python grpcio (C-core)", ours, Row(T, PythonGrpcServer.ServerName, Grpc, GrpcClient.Label), Speed));
        lines.Add(Ratio("gRPC upload, ours / Python grpcio (C-core)", Row(U, "ours", Grpc, GrpcClient.Label), Row(U, PythonGrpcServer.ServerName, Grpc, GrpcClient.Label), Speed));
        lines.Add(Ratio("gRPC upload / REST PUT HTTP/1.1, ours (harness clients)", Row(U, "ours", Grpc, GrpcClient.Label), Row(U, "ours", "REST HTTP/1.1", ".NET"), Speed));
        if (results.Any(r => r.Server == "ours-before"))
        {
            foreach (var before in results.Where(r => r.Server == "ours-before" && r.Measured))
            {
                var after = Find(r => r.Server == "ours" && (r.Group, r.Name, r.Protocol, r.Client) == (before.Group, before.Name, before.Protocol, before.Client));
                lines.Add(Ratio($"Before/after: {before.Name}, {before.Protocol}, {before.Client}: ours / ours-before", after, before,
                    before.PerRequest ? s => s.RequestsPerSecond : Speed));
            }
        }

        return lines;
    }

    private CaseResult? Find(Func<CaseResult, bool> match) => results.FirstOrDefault(r => r.Measured && match(r));

    private TargetLine AtLeast(string label, double target, CaseResult? numerator, CaseResult? denominator, Func<Sample, double> figure)
    {
        var line = Ratio(label, numerator, denominator, figure);
        var text = $"≥ {target.ToString("0.0#", Invariant)}×";
        if (line.Runs == 0)
        {
            return line with { Target = text, Verdict = "not judged: not measured" };
        }

        var min = PerRound(numerator!, denominator!, figure).Min();
        return line with { Target = text, Verdict = Judge(line.Runs, min >= target) };
    }

    private TargetLine Ratio(string label, CaseResult? numerator, CaseResult? denominator, Func<Sample, double> figure)
    {
        if (numerator is null || denominator is null)
        {
            return new TargetLine(label, "–", "not measured", 0, "–");
        }

        var ratios = PerRound(numerator, denominator, figure);
        if (ratios.Length == 0)
        {
            return new TargetLine(label, "–", "no round measured both", 0, "–");
        }

        var spread = new Spread(CaseResult.Median(ratios), ratios[0], ratios[^1], ratios.Length);
        return new TargetLine(label, "–", $"{spread.Median.ToString("0.00", Invariant)}× ({spread.Min.ToString("0.00", Invariant)}–{spread.Max.ToString("0.00", Invariant)})", ratios.Length, "–");
    }

    /// <summary>Run i of one row over run i of the other, sorted; rounds where either failed are left out.</summary>
    private static double[] PerRound(CaseResult numerator, CaseResult denominator, Func<Sample, double> figure) =>
        [.. numerator.Samples.Join(denominator.Samples, s => s.Round, s => s.Round, (a, b) => figure(a) / figure(b)).Order()];

    private TargetLine AtMost(string label, double limit, string unit, IReadOnlyList<CaseResult> rows, Func<Sample, double> figure, string? notJudged)
    {
        var target = $"≤ {limit.ToString("N0", Invariant)} {unit}";
        var measured = rows.Where(r => r.Measured).ToList();
        if (measured.Count == 0)
        {
            return new TargetLine(label, target, "not measured", 0, "not judged: not measured");
        }

        var worst = measured.MaxBy(r => r.Samples.Max(figure))!;
        var spread = worst.Of(s => figure(s));
        var runs = measured.Min(r => r.Samples.Count);
        var text = $"{spread.Format("N0")} {unit}, worst row: {worst.Name}, {worst.Protocol}, {worst.Client}";
        return new TargetLine(label, target, text, runs, notJudged is null ? Judge(runs, spread.Max <= limit) : "not judged: " + notJudged);
    }

    private string Judge(int runs, bool cleared) =>
        options.Smoke ? "not judged: smoke run"
        : runs < HarnessOptions.MinimumRuns ? $"not judged: {runs} run(s), fewer than {HarnessOptions.MinimumRuns}"
        : cleared ? "yes" : "**no**";
}
