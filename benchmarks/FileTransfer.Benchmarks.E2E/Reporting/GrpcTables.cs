using System.Globalization;
using System.Text;
using FileTransfer.Benchmarks.E2E.Cases;

namespace FileTransfer.Benchmarks.E2E.Reporting;

/// <summary>
/// The published 4 GB table (Kreya's blog: gRPC naive, gRPC optimized, REST HTTP/1.1, REST HTTP/2)
/// reproduced from case 7, ours's gRPC and the Python reference beside it, and the chunk-size sweep
/// of case 9 as one row per chunk size.
/// </summary>
internal static class GrpcTables
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>Published: duration s, max memory MB, total allocated MB (4 GB download, .NET 10, Windows 11).</summary>
    private static readonly (string Column, double Seconds, double MaxMemoryMb, double AllocatedMb)[] Published =
    [
        ("gRPC naive", 24, 36, 4465),
        ("gRPC optimized", 22, 35, 165),
        ("REST HTTP/1.1", 20, 32, 38),
        ("REST HTTP/2", 28, 35, 137),
    ];

    public static void Write(StringBuilder text, IReadOnlyList<CaseResult> results)
    {
        WritePublished(text, results);
        WriteSweep(text, results);
    }

    private static void WritePublished(StringBuilder text, IReadOnlyList<CaseResult> results)
    {
        CaseResult? Row(string server, string protocol) => results.FirstOrDefault(r =>
            r.Group == GrpcCases.DownloadGroup && r.Server == server && r.Protocol == protocol && r.Client != Clients.GrpcClient.PooledLabel && r.Measured);

        // The published four columns, then ours's gRPC and the Python reference beside them.
        CaseResult?[] rows =
        [
            Row(GrpcCases.Naive, GrpcCases.Grpc), Row(GrpcCases.Optimized, GrpcCases.Grpc), Row("ours", "REST HTTP/1.1"), Row("ours", "REST HTTP/2"),
            Row("ours", GrpcCases.Grpc), Row(Infrastructure.PythonGrpcServer.ServerName, GrpcCases.Grpc),
        ];
        if (rows.All(r => r is null))
        {
            return;
        }

        var size = rows.OfType<CaseResult>().First().Name;
        text.AppendLine();
        text.AppendLine("## The published 4 GB table, reproduced (case 7)");
        text.AppendLine();
        text.AppendLine(CultureInfo.InvariantCulture, $"This run: {size} from the page cache, every client in the harness's .NET process (Grpc.Net.Client, HttpClient), medians (min–max) of the runs.");
        text.AppendLine("*gRPC naive* and *gRPC optimized* are the published code (benchmarks/FileTransfer.Benchmarks.NaiveGrpc, Kestrel's defaults, no authentication); "
            + "REST and *gRPC ours* are the product as shipped (API key checked, rate limiter, logging); Python grpcio is the reference in another stack. "
            + "Memory is the server's peak working set (VmHWM); allocated is the server's managed allocation (none for Python). "
            + "Published: Kreya's blog, 4 GB, .NET 10, Windows 11, client and server on one machine.");
        text.AppendLine();
        text.AppendLine("| | gRPC naive | gRPC optimized | REST HTTP/1.1 | REST HTTP/2 | gRPC ours | gRPC Python grpcio |");
        text.AppendLine("|---|--:|--:|--:|--:|--:|--:|");
        Line(text, "Duration s, this run", rows, r => r.Of(s => s.Duration.TotalSeconds).Format("N2"));
        text.AppendLine(Invariant, $"| Duration s, published | {string.Join(" | ", Published.Select(p => p.Seconds.ToString("N0", Invariant)))} | – | – |");
        Line(text, "MB/s, this run", rows, r => r.Of(s => s.MegabytesPerSecond).Format("N0"));
        Line(text, "Server peak working set MB, this run", rows, r => r.Of(s => s.ServerPeakWorkingSetBytes).Format("N0", 1e6));
        text.AppendLine(Invariant, $"| Max memory MB, published | {string.Join(" | ", Published.Select(p => p.MaxMemoryMb.ToString("N0", Invariant)))} | – | – |");
        Line(text, "Server allocated MB, this run", rows, r => r.Of(s => s.ServerAllocatedBytes).Format("N1", 1e6));
        text.AppendLine(Invariant, $"| Total allocated MB, published | {string.Join(" | ", Published.Select(p => p.AllocatedMb.ToString("N0", Invariant)))} | – | – |");
        Line(text, "Server CPU s/GiB, this run", rows, r => r.Of(s => s.CpuSecondsPerGiB).Format("N2"));
        if (rows[2] is { } http1)
        {
            var baseline = http1.Of(s => s.Duration.TotalSeconds).Median;
            Line(text, "Duration / REST HTTP/1.1, this run", rows, r => (r.Of(s => s.Duration.TotalSeconds).Median / baseline).ToString("N2", Invariant));
            text.AppendLine(Invariant, $"| Duration / REST HTTP/1.1, published | {string.Join(" | ", Published.Select(p => (p.Seconds / Published[2].Seconds).ToString("N2", Invariant)))} | – | – |");
        }
    }

    private static void Line(StringBuilder text, string label, CaseResult?[] rows, Func<CaseResult, string> figure) =>
        text.AppendLine(Invariant, $"| {label} | {string.Join(" | ", rows.Select(r => r is null ? "–" : figure(r)))} |");

    private static void WriteSweep(StringBuilder text, IReadOnlyList<CaseResult> results)
    {
        var sweep = results.Where(r => r.Group == GrpcChunkSweep.Group && r.ChunkBytes is not null).ToList();
        if (sweep.Count == 0)
        {
            return;
        }

        text.AppendLine();
        text.AppendLine("## gRPC chunk-size sweep (case 9), one row per chunk size");
        text.AppendLine();
        text.AppendLine("| chunk | file | download MB/s median (min–max) | download server CPU s/GiB | upload MB/s median (min–max) | upload server CPU s/GiB |");
        text.AppendLine("|--:|--:|--:|--:|--:|--:|");
        foreach (var chunk in sweep.GroupBy(r => r.ChunkBytes!.Value).OrderBy(g => g.Key))
        {
            var download = chunk.FirstOrDefault(r => r.Name.StartsWith("download", StringComparison.Ordinal));
            var upload = chunk.FirstOrDefault(r => r.Name.StartsWith("upload", StringComparison.Ordinal));
            var file = chunk.First().Name.Split(", ")[^1].Replace(" file", "", StringComparison.Ordinal);
            text.AppendLine(Invariant, $"| {BenchContext.Size(chunk.Key)} | {file} | {Throughput(download)} | {CpuPerGiB(download)} | {Throughput(upload)} | {CpuPerGiB(upload)} |");
        }
    }

    private static string Throughput(CaseResult? row) => row is null ? "–" : row.Error is not null ? "failed" : row.Of(s => s.MegabytesPerSecond).Format("N1");

    private static string CpuPerGiB(CaseResult? row) => row is null || row.Error is not null ? "–" : row.Of(s => s.CpuSecondsPerGiB).Format("N2");
}
