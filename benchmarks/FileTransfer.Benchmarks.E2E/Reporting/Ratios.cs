using System.Globalization;
using FileTransfer.Benchmarks.E2E.Cases;

namespace FileTransfer.Benchmarks.E2E.Reporting;

/// <summary>The ratios and limits issue 5 sets, computed from the medians of one run.</summary>
internal static class Ratios
{
    public static IEnumerable<RatioLine> Compute(IReadOnlyList<CaseResult> results)
    {
        CaseResult? Find(string group, string server, string protocol, string client, string? name = null) =>
            results.FirstOrDefault(r => r.Group == group && r.Server == server && r.Protocol == protocol
                && r.Client == client && (name is null || r.Name == name) && r.Samples.Count > 0 && r.Error is null);

        RatioLine Throughput(string label, CaseResult? a, CaseResult? b, double? target, Func<Sample, double>? figure = null)
        {
            figure ??= s => s.MegabytesPerSecond;
            if (a is null || b is null)
            {
                return new RatioLine(label, "not measured", target?.ToString("0.00×", CultureInfo.InvariantCulture), null);
            }

            var ratio = a.Of(s => figure(s)).Median / b.Of(s => figure(s)).Median;
            return new RatioLine(label, ratio.ToString("0.00×", CultureInfo.InvariantCulture),
                target is null ? null : $"≥ {target.Value.ToString("0.0#", CultureInfo.InvariantCulture)}×", target is null ? null : ratio >= target);
        }

        RatioLine AtMost(string label, IEnumerable<CaseResult?> rows, Func<Sample, double?> figure, double limit, string unit)
        {
            var measured = rows.OfType<CaseResult>().Select(r => r.Of(figure)).Where(s => !s.IsNone).ToList();
            if (measured.Count == 0)
            {
                return new RatioLine(label, "not measured", $"≤ {limit} {unit}", null);
            }

            var worst = measured.Max(s => s.Median);
            return new RatioLine(label, $"{worst.ToString("N2", CultureInfo.InvariantCulture)} {unit}", $"≤ {limit} {unit}", worst <= limit);
        }

        const string Dl = DownloadCases.NeutralGroup, Net = DownloadCases.DotnetGroup, Up = UploadCases.Group;
        const string H1 = "HTTP/1.1", H2 = "HTTP/2";
        yield return Throughput("REST HTTP/1.1 download, ours / nginx sendfile (curl)", Find(Dl, "ours", H1, "curl"), Find(Dl, "nginx", H1, "curl"), 1.0);
        yield return Throughput("REST HTTP/2 download, ours / nginx (h2load)", Find(Dl, "ours", H2, "h2load"), Find(Dl, "nginx", H2, "h2load"), null);
        yield return Throughput("REST HTTP/2 download, ours / nginx (curl)", Find(Dl, "ours", H2, "curl"), Find(Dl, "nginx", H2, "curl"), null);
        yield return Throughput("Ours HTTP/2 / HTTP/1.1 (.NET HttpClient)", Find(Net, "ours", H2, ".NET HttpClient"), Find(Net, "ours", H1, ".NET HttpClient"), 0.9);
        yield return Throughput("Ours HTTP/2 / HTTP/1.1 (curl)", Find(Dl, "ours", H2, "curl"), Find(Dl, "ours", H1, "curl"), null);
        yield return Throughput("nginx HTTP/2 / HTTP/1.1 (curl)", Find(Dl, "nginx", H2, "curl"), Find(Dl, "nginx", H1, "curl"), null);
        yield return Throughput("Upload HTTP/1.1 `curl -T`, ours / nginx WebDAV PUT", Find(Up, "ours", H1, "curl -T"), Find(Up, "nginx", H1, "curl -T"), 0.9);
        yield return Throughput("Upload HTTP/2 `curl -T`, ours / nginx WebDAV PUT", Find(Up, "ours", H2, "curl -T"), Find(Up, "nginx", H2, "curl -T"), null);
        foreach (var size in new[] { "1 KiB", "64 KiB" })
        {
            foreach (var (protocol, client) in new[] { (H1, "wrk -c32"), (H2, "h2load -c32 -m4") })
            {
                yield return Throughput($"GET {size} requests/s, ours / nginx ({client.Split(' ')[0]})",
                    Find(SmallFileCases.Group, "ours", protocol, client, $"GET {size}"), Find(SmallFileCases.Group, "nginx", protocol, client, $"GET {size}"), null, s => s.RequestsPerSecond);
            }
        }

        if (results.Any(r => r.Server == "ours-before"))
        {
            const string Before = "ours-before";
            yield return Throughput("Before/after: HTTP/1.1 download (curl), ours / ours-before", Find(Dl, "ours", H1, "curl"), Find(Dl, Before, H1, "curl"), null);
            yield return Throughput("Before/after: HTTP/2 download (curl), ours / ours-before", Find(Dl, "ours", H2, "curl"), Find(Dl, Before, H2, "curl"), null);
            yield return Throughput("Before/after: HTTP/1.1 download (.NET), ours / ours-before", Find(Net, "ours", H1, ".NET HttpClient"), Find(Net, Before, H1, ".NET HttpClient"), null);
            yield return Throughput("Before/after: HTTP/2 download (.NET), ours / ours-before", Find(Net, "ours", H2, ".NET HttpClient"), Find(Net, Before, H2, ".NET HttpClient"), null);
            yield return Throughput("Before/after: HTTP/2 / HTTP/1.1 (.NET), ours-before", Find(Net, Before, H2, ".NET HttpClient"), Find(Net, Before, H1, ".NET HttpClient"), null);
        }

        const string G7 = GrpcCases.DownloadGroup, G8 = GrpcCases.UploadGroup, Grpc = GrpcCases.Grpc;
        CaseResult? Row(string group, string server, string protocol) =>
            results.FirstOrDefault(r => r.Group == group && r.Server == server && r.Protocol == protocol && r.Client != Clients.GrpcClient.PooledLabel && r.Samples.Count > 0 && r.Error is null);
        yield return Throughput("gRPC download / REST HTTP/1.1 download, same .NET process", Row(G7, "ours", Grpc), Row(G7, "ours", "REST HTTP/1.1"), 0.85);
        var pooled = results.FirstOrDefault(r => r.Group == G7 && r.Server == "ours" && r.Client == Clients.GrpcClient.PooledLabel && r.Samples.Count > 0 && r.Error is null);
        yield return Throughput("gRPC download with the pooled-chunk client / REST HTTP/1.1 download", pooled, Row(G7, "ours", "REST HTTP/1.1"), 0.85);
        yield return Throughput("gRPC download / REST HTTP/2 download, same .NET process", Row(G7, "ours", Grpc), Row(G7, "ours", "REST HTTP/2"), null);
        yield return Throughput("gRPC download with the pooled-chunk client / REST HTTP/2 download", pooled, Row(G7, "ours", "REST HTTP/2"), null);
        yield return Throughput("gRPC download, ours / gRPC naive", Row(G7, "ours", Grpc), Row(G7, GrpcCases.Naive, Grpc), null);
        yield return Throughput("gRPC upload / REST PUT HTTP/1.1, same .NET process", Row(G8, "ours", Grpc), Row(G8, "ours", "REST HTTP/1.1"), 0.85);
        yield return Throughput("gRPC upload / REST PUT HTTP/2, same .NET process", Row(G8, "ours", Grpc), Row(G8, "ours", "REST HTTP/2"), null);
        if (results.Any(r => r.Server == "ours-before" && r.Group is G7 or G8))
        {
            yield return Throughput("Before/after: gRPC download, ours / ours-before", Row(G7, "ours", Grpc), Row(G7, "ours-before", Grpc), null);
            yield return Throughput("Before/after: gRPC upload, ours / ours-before", Row(G8, "ours", Grpc), Row(G8, "ours-before", Grpc), null);
        }

        static double? PerGiB(Sample s) => s.ServerAllocatedBytes / 1e6 / (s.Bytes / (double)(1L << 30));
        yield return AtMost("Server allocations per GiB, gRPC download (ours)", [Row(G7, "ours", Grpc)], PerGiB, 8, "MB");
        yield return AtMost("Server allocations per GiB, gRPC upload (ours)", [Row(G8, "ours", Grpc)], PerGiB, 4, "MB");
        yield return AtMost("Server allocations per GiB, REST HTTP/2 download (ours, case 7)", [Row(G7, "ours", "REST HTTP/2")], PerGiB, 2, "MB");
        yield return AtMost("Server peak working set, gRPC download of the large file (ours)", [Row(G7, "ours", Grpc)], s => s.ServerPeakWorkingSetBytes / 1e6, 150, "MB");
        yield return AtMost("Server peak working set, concurrent gRPC downloads (ours)",
            results.Where(r => r.Group == ConcurrencyCase.Group && r.Server == "ours" && r.Protocol == Grpc), s => s.ServerPeakWorkingSetBytes / 1e6, 400, "MB");
        if (results.FirstOrDefault(r => r.Group == GrpcUnaryCase.Group && r.Samples.Count > 0 && r.Error is null) is { } unary)
        {
            var perCall = unary.Of(s => s.ServerAllocatedBytes / (double?)s.Requests).Median;
            yield return new RatioLine("Server bytes allocated per GetFileInfo call (published: 330 B per trivial unary call, .NET 5)",
                $"{perCall.ToString("N0", CultureInfo.InvariantCulture)} B ({(perCall / 330).ToString("0.0", CultureInfo.InvariantCulture)}× 330 B)", null, null);
        }

        var oursLarge = results.Where(r => r.Server == "ours" && r.Group is Net or Dl && r.Error is null).ToList();
        yield return AtMost("Server allocations per GiB downloaded, ours (worst row of cases 1–2)", oursLarge,
            s => s.ServerAllocatedBytes / 1e6 / (s.Bytes / (double)(1L << 30)), 2, "MB");
        yield return AtMost("Server allocations per GiB uploaded, ours (worst row of case 3)", results.Where(r => r.Server == "ours" && r.Group == Up),
            s => s.ServerAllocatedBytes / 1e6 / (s.Bytes / (double)(1L << 30)), 2, "MB");
        yield return AtMost("Server peak working set during a large transfer, ours (worst row of cases 1–3)",
            results.Where(r => r.Server == "ours" && r.Group is Net or Dl or Up), s => s.ServerPeakWorkingSetBytes / 1e6, 150, "MB");
        yield return AtMost("Server peak working set during case 6, ours", results.Where(r => r.Server == "ours" && r.Group == ConcurrencyCase.Group),
            s => s.ServerPeakWorkingSetBytes / 1e6, 400, "MB");
    }
}
