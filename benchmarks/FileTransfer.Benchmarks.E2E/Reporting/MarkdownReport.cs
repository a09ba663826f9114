using System.Globalization;
using System.Text;

namespace FileTransfer.Benchmarks.E2E.Reporting;

/// <summary>Markdown tables (median and min–max of every figure), then the ratios measured in this run.</summary>
internal static class MarkdownReport
{
    private const double Mega = 1e6;

    public static string Write(IReadOnlyList<CaseResult> results, string machine, string command, IEnumerable<RatioLine> ratios)
    {
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"Command: `{command}`");
        text.AppendLine();
        text.AppendLine(machine);
        text.AppendLine();
        text.AppendLine("Each cell: median (min–max) over the measured runs. MB = 10^6 bytes. Server allocations are");
        text.AppendLine("`GC.GetTotalAllocatedBytes(true)` deltas read from `/debug/runtime`; peak working set is VmHWM,");
        text.AppendLine("reset before every run (for nginx the sum over master and workers); CPU is user+system of the server.");
        foreach (var group in results.GroupBy(r => r.Group))
        {
            text.AppendLine();
            text.AppendLine(CultureInfo.InvariantCulture, $"### {group.Key}");
            text.AppendLine();
            var small = group.Key.StartsWith("5.", StringComparison.Ordinal) || group.Any(r => r.PerRequest);
            text.AppendLine(small
                ? "| case | server | protocol | client | requests/s | MB/s | server alloc B/request | server peak WS MB | server CPU µs/request | client alloc B/request |"
                : "| case | server | protocol | client | duration s | MB/s | server alloc MB | server alloc MB/GiB | server peak WS MB | server CPU s | client alloc MB |");
            text.AppendLine(small ? "|---|---|---|---|--:|--:|--:|--:|--:|--:|" : "|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|");
            foreach (var r in group)
            {
                var head = $"| {r.Name} | {r.Server} | {r.Protocol} | {r.Client} |";
                if (r.Skipped is not null || r.Error is not null)
                {
                    var why = r.Skipped is not null ? $"skipped: {r.Skipped}" : $"**FAILED**: {r.Error}";
                    text.AppendLine(CultureInfo.InvariantCulture, $"{head} {why} |{new string('|', small ? 5 : 6)}");
                    continue;
                }

                if (r.NginxFloodRetries > 0)
                {
                    head = $"| {r.Name} | {r.Server} | {r.Protocol} | {r.Client} (retried {r.NginxFloodRetries}×: nginx `http2 flood detected`) |";
                }

                text.AppendLine(small
                    ? $"{head} {r.Of(s => s.RequestsPerSecond).Format("N0")} | {r.Of(s => s.MegabytesPerSecond).Format("N0")} | "
                      + $"{r.Of(s => s.ServerAllocatedBytes / (double)s.Requests).Format("N0")} | {r.Of(s => s.ServerPeakWorkingSetBytes).Format("N0", Mega)} | "
                      + $"{r.Of(s => s.ServerCpuMilliseconds * 1000 / s.Requests).Format("N1")} | {r.Of(s => s.ClientAllocatedBytes / (double?)s.Requests).Format("N0")} |"
                    : $"{head} {r.Of(s => s.Duration.TotalSeconds).Format("N2")} | {r.Of(s => s.MegabytesPerSecond).Format("N0")} | "
                      + $"{r.Of(s => s.ServerAllocatedBytes).Format("N2", Mega)} | {r.Of(s => s.ServerAllocatedBytes / (s.Bytes / (double)(1L << 30))).Format("N2", Mega)} | "
                      + $"{r.Of(s => s.ServerPeakWorkingSetBytes).Format("N0", Mega)} | {r.Of(s => s.ServerCpuMilliseconds).Format("N2", 1000)} | "
                      + $"{r.Of(s => s.ClientAllocatedBytes).Format("N2", Mega)} |");
            }
        }

        GrpcTables.Write(text, results);
        text.AppendLine();
        text.AppendLine("### Ratios and targets (medians of this run)");
        text.AppendLine();
        text.AppendLine("| figure | measured | target | met |");
        text.AppendLine("|---|--:|--:|:-:|");
        foreach (var ratio in ratios)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"| {ratio.Label} | {ratio.Measured} | {ratio.Target ?? "–"} | {(ratio.Met is null ? "–" : ratio.Met.Value ? "yes" : "**no**")} |");
        }

        return text.ToString();
    }
}

/// <summary>One line of the ratios table.</summary>
internal sealed record RatioLine(string Label, string Measured, string? Target, bool? Met);
