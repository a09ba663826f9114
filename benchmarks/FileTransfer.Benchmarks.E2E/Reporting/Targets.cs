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
/// The goals of issue 26 ("Lean by default"), as the issue states them, computed from this run's rows.
/// A ratio is taken round by round (run i of one row over run i of the other: the round-robin put them
/// next to each other), and the target is met only when every round's ratio clears it, over at least
/// <see cref="HarnessOptions.MinimumRuns"/> runs (the client lines: the median clears it and the worst
/// round clears its own floor); a limit is met only when every run stays within it.
/// </summary>
internal sealed class Targets(IReadOnlyList<CaseResult> results, HarnessOptions options)
{
    /// <summary>The issue whose goals <see cref="Goals"/> judges, as the report names it.</summary>
    public const string Issue = "issue 26";

    /// <summary>
    /// The row (any case) whose duration is the CLI's start-up: <c>filetransfer --version</c>, a
    /// process per run; judged on its median and worst duration when a case measures it.
    /// </summary>
    public const string CliVersionRow = "filetransfer --version";

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    public IReadOnlyList<TargetLine> Goals()
    {
        var lines = new List<TargetLine>();
        SmallFiles(lines);
        Memory(lines);
        Clients(lines);
        return lines;
    }

    // 1 KiB >= 0.8x and 64 KiB >= 0.9x nginx with its access log; p99 at a fixed rate <= 1.5x nginx's.
    private void SmallFiles(List<TargetLine> lines)
    {
        const string Nginx = NginxServer.Logging;
        foreach (var (file, target) in new[] { ("1 KiB", 0.8), ("64 KiB", 0.9) })
        {
            foreach (var (protocol, client) in new[] { ("HTTP/1.1", SmallFileCases.WrkClient), ("HTTP/2", SmallFileCases.H2loadClient) })
            {
                CaseResult? Small(string server) => Find(r => r.Group == SmallFileCases.Group && r.Name == $"GET {file}" && r.Server == server && r.Protocol == protocol && r.Client == client);
                lines.Add(AtLeast($"GET {file} requests/s, ours / {Nginx} ({client.Split(' ')[0]}, {protocol}, API key on every request)", target,
                    Small("ours"), Small(Nginx), s => s.RequestsPerSecond));
            }
        }

        var fixedRate = SmallFileCases.FixedRateClient(options.FixedRate);
        foreach (var file in new[] { "1 KiB", "64 KiB" })
        {
            foreach (var protocol in new[] { "HTTP/1.1", "HTTP/2" })
            {
                CaseResult? Row(string server) => Find(r => r.Group == SmallFileCases.Group && r.Name == $"GET {file}" && r.Server == server && r.Protocol == protocol && r.Client == fixedRate);
                lines.Add(LatencyAtMost($"p99 latency of GET {file} at {options.FixedRate.ToString("N0", Invariant)} req/s, ours / {Nginx} (h2load --rps, {protocol})", 1.5, Row("ours"), Row(Nginx)));
            }
        }
    }

    private void Memory(List<TargetLine> lines)
    {
        var size = BenchContext.Size(options.Size);
        var memory = results.Where(r => r.Group == MemoryCase.Group && r.Server == "ours").ToList();
        lines.Add(AtMost("Server working set, idle after start (ours, a fresh process per run: case 0)", 64, "MB",
            [.. memory.Where(r => r.Name == MemoryCase.Idle)], s => s.ServerPeakWorkingSetBytes / 1e6, null));
        var single = memory.Where(r => r.Name != MemoryCase.Idle).ToList();
        lines.Add(AtMost($"Server peak working set, one {size} download (ours, worst of {single.Count} rows: REST HTTP/1.1, h2c, gRPC, case 0)", 96, "MB", single,
            s => s.ServerPeakWorkingSetBytes / 1e6, options.Size == 1L << 30 ? null : $"the goal is for 1 GiB; this run's file is {size}"));
        var concurrent = results.Where(r => r.Server == "ours" && r.Concurrency == 64 && r.Name.Contains("downloads", StringComparison.Ordinal)).ToList();
        lines.Add(AtMost($"Server peak working set, 64 concurrent downloads (ours, worst of {concurrent.Count} rows: case 6)", 160, "MB", concurrent,
            s => s.ServerPeakWorkingSetBytes / 1e6, options.ConcurrentSize == 64L << 20 ? null : $"the goal is for 64 MiB each; this run's are {BenchContext.Size(options.ConcurrentSize)}"));
    }

    // The client lines (perf-client's levers), judged here whoever measures them.
    private void Clients(List<TargetLine> lines)
    {
        const string C = ClientCases.Group, Grpc = GrpcCases.Grpc, H1 = ClientCases.RestHttp1;
        var size = BenchContext.Size(options.Size);
        CaseResult? Client(string name, string protocol, string client) =>
            Find(r => r.Group == C && r.Name.StartsWith(name, StringComparison.Ordinal) && r.Protocol == protocol && r.Client == client);
        lines.Add(AtLeast($"`filetransfer download` (REST HTTP/1.1, digest verified) / curl to a file ({size})", 0.9,
            Client("download", H1, CliClient.Label), Client("download", H1, ClientCases.CurlToFile), s => s.MegabytesPerSecond));
        var version = Find(r => r.Name == CliVersionRow);
        lines.Add(version is null
            ? new TargetLine($"`{CliVersionRow}`, wall time of the process", "≤ 50 ms", "not measured", 0, "not judged: not measured")
            : AtMost($"`{CliVersionRow}`, wall time of the process", 50, "ms", [version], s => s.Duration.TotalMilliseconds, null));
        foreach (var (label, clientLabel) in new[] { ("client library", LibraryClient.Label), ("CLI", CliClient.Label) })
        {
            lines.Add(AtLeastWithFloor($"gRPC DownloadFile / REST HTTP/1.1 download, {label} ({size})", 0.9, 0.85,
                Client("download", Grpc, clientLabel), Client("download", H1, clientLabel), s => s.MegabytesPerSecond));
            lines.Add(AtLeastWithFloor($"gRPC UploadFile / REST PUT (HTTP/1.1), {label} ({size})", 0.9, 0.85,
                Client("upload", Grpc, clientLabel), Client("upload", H1, clientLabel), s => s.MegabytesPerSecond));
        }
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
        foreach (var file in new[] { "1 KiB", "64 KiB" })
        {
            foreach (var (protocol, client) in new[] { ("HTTP/1.1", SmallFileCases.WrkClient), ("HTTP/2", SmallFileCases.H2loadClient) })
            {
                CaseResult? Small(string server) => Find(r => r.Group == SmallFileCases.Group && r.Name == $"GET {file}" && r.Server == server && r.Protocol == protocol && r.Client == client);
                lines.Add(Ratio($"GET {file} requests/s, ours / {NginxServer.Plain} ({client.Split(' ')[0]}, {protocol}, access log off)", Small("ours"), Small(NginxServer.Plain), s => s.RequestsPerSecond));

                // The floor beside the goal's reference: how far below nginx-log Kestrel alone already is (--kestrel-bare only).
                if (Small(KestrelBareServer.ServerName) is { } bare)
                {
                    lines.Add(Ratio($"GET {file} requests/s, {bare.Server} / {NginxServer.Logging} ({client.Split(' ')[0]}, {protocol}, Kestrel alone)", bare, Small(NginxServer.Logging), s => s.RequestsPerSecond));
                    lines.Add(Ratio($"GET {file} requests/s, ours / {bare.Server} ({client.Split(' ')[0]}, {protocol}, what the product adds to Kestrel)", Small("ours"), bare, s => s.RequestsPerSecond));
                    lines.Add(Ratio($"GET {file} server CPU per request, ours / {bare.Server} ({client.Split(' ')[0]}, {protocol})", Small("ours"), bare, s => s.CpuMicrosecondsPerRequest));
                }
            }
        }

        BeforeAfter(lines);
        return lines;
    }

    /// <summary>
    /// With an ours-before (<c>--baseline-server</c>, <c>--baseline-env</c>), every row it ran beside
    /// ours: throughput (or requests/s), server CPU and allocations per GiB (or per request), and
    /// peak working set, ours over ours-before round by round. "Nothing slips" is read here.
    /// </summary>
    private void BeforeAfter(List<TargetLine> lines)
    {
        foreach (var before in results.Where(r => r.Server == "ours-before" && r.Measured))
        {
            var after = Find(r => r.Server == "ours" && (r.Group, r.Name, r.Protocol, r.Client, r.Concurrency) == (before.Group, before.Name, before.Protocol, before.Client, before.Concurrency));
            var row = $"Before/after: {before.Name}, {before.Protocol}, {before.Client}: ours / ours-before";
            if (before.Samples.All(s => s.Bytes == 0 && s.Requests == 0))
            {
                lines.Add(Ratio(row + ", working set", after, before, s => s.ServerPeakWorkingSetBytes));
                continue;
            }

            lines.Add(Ratio(row + (before.PerRequest ? ", requests/s" : ", MB/s"), after, before, before.PerRequest ? s => s.RequestsPerSecond : s => s.MegabytesPerSecond));
            lines.Add(Ratio(row + ", server CPU per " + (before.PerRequest ? "request" : "GiB"), after, before,
                before.PerRequest ? s => s.CpuMicrosecondsPerRequest : s => s.CpuSecondsPerGiB ?? double.NaN));
            lines.Add(Ratio(row + ", server allocations per " + (before.PerRequest ? "request" : "GiB"), after, before,
                before.PerRequest ? s => (s.ServerAllocatedBytes ?? double.NaN) / s.Requests : s => s.AllocatedMegabytesPerGiB ?? double.NaN));
            lines.Add(Ratio(row + ", peak working set", after, before, s => s.ServerPeakWorkingSetBytes));
        }
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

    /// <summary>Met when the median round clears <paramref name="target"/> and the worst round <paramref name="floor"/>.</summary>
    private TargetLine AtLeastWithFloor(string label, double target, double floor, CaseResult? numerator, CaseResult? denominator, Func<Sample, double> figure)
    {
        var line = Ratio(label, numerator, denominator, figure);
        var text = $"≥ {target.ToString("0.0#", Invariant)}×, worst round ≥ {floor.ToString("0.0#", Invariant)}×";
        if (line.Runs == 0)
        {
            return line with { Target = text, Verdict = "not judged: not measured" };
        }

        var ratios = PerRound(numerator!, denominator!, figure);
        return line with { Target = text, Verdict = Judge(line.Runs, CaseResult.Median(ratios) >= target && ratios[0] >= floor) };
    }

    /// <summary>
    /// p99 of ours over p99 of the reference, round by round, at most <paramref name="limit"/>; not judged
    /// when the reference fell short of the asked rate (its latency then says nothing about the rate).
    /// </summary>
    private TargetLine LatencyAtMost(string label, double limit, CaseResult? ours, CaseResult? reference)
    {
        var text = $"≤ {limit.ToString("0.0#", Invariant)}×";
        static double P99(Sample s) => s.Latency?.P99Milliseconds ?? double.NaN;
        var line = Ratio(label, ours, reference, P99);
        if (line.Runs == 0)
        {
            return line with { Target = text, Verdict = "not judged: not measured" };
        }

        var shortfall = reference!.Samples.Where(s => s.Latency is { } l && s.RequestsPerSecond < 0.95 * l.TargetRate).ToList();
        if (shortfall.Count > 0)
        {
            return line with { Target = text, Verdict = $"not judged: {reference.Server} reached {shortfall.Min(s => s.RequestsPerSecond).ToString("N0", Invariant)} of {shortfall[0].Latency!.TargetRate.ToString("N0", Invariant)} req/s" };
        }

        return line with { Target = text, Verdict = Judge(line.Runs, PerRound(ours!, reference, P99)[^1] <= limit) };
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
        [.. numerator.Samples.Join(denominator.Samples, s => s.Round, s => s.Round, (a, b) => figure(a) / figure(b)).Where(double.IsFinite).Order()];

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
