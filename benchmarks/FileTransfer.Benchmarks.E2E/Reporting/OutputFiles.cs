using System.Globalization;
using System.Text;
using FileTransfer.Benchmarks.E2E.Cases;

namespace FileTransfer.Benchmarks.E2E.Reporting;

/// <summary>The raw files beside report.md: every run in runs.csv, every server's configuration in peers/, their logs in logs/.</summary>
internal static class OutputFiles
{
    public const string RunsHeader = "group,case,server,protocol,client,concurrency,round,duration_s,bytes,requests,mb_per_s,requests_per_s,"
        + "server_cpu_ms,server_cpu_s_per_gib,server_peak_rss_bytes,server_allocated_bytes,client_allocated_bytes,load1,"
        + "fixed_rate_asked,latency_p50_ms,latency_p99_ms,latency_max_ms";

    public static async Task WriteRunsAsync(IReadOnlyList<CaseResult> results, string path)
    {
        var text = new StringBuilder(RunsHeader).Append('\n');
        foreach (var r in results)
        {
            foreach (var s in r.Samples)
            {
                string[] fields =
                [
                    r.Group, r.Name, r.Server, r.Protocol, r.Client, Number(r.Concurrency), Number(s.Round),
                    Number(s.Duration.TotalSeconds), Number(s.Bytes), Number(s.Requests), Number(s.MegabytesPerSecond), Number(s.RequestsPerSecond),
                    Number(s.ServerCpuMilliseconds), Number(s.CpuSecondsPerGiB), Number(s.ServerPeakWorkingSetBytes), Number(s.ServerAllocatedBytes),
                    Number(s.ClientAllocatedBytes), Number(s.Load1),
                    Number(s.Latency?.TargetRate), Number(s.Latency?.P50Milliseconds), Number(s.Latency?.P99Milliseconds), Number(s.Latency?.MaxMilliseconds),
                ];
                text.AppendJoin(',', fields.Select(Quote)).Append('\n');
            }
        }

        await File.WriteAllTextAsync(path, text.ToString());
    }

    public static async Task WritePeersAndLogsAsync(BenchContext context, string directory)
    {
        var peers = Directory.CreateDirectory(Path.Combine(directory, "peers")).FullName;
        var logs = Directory.CreateDirectory(Path.Combine(directory, "logs")).FullName;
        foreach (var server in context.AllServers)
        {
            await File.WriteAllTextAsync(Path.Combine(peers, server.ConfigurationFileName), server.Configuration.Replace(context.WorkDirectory, "$WORK", StringComparison.Ordinal));
            var earlier = context.EarlierLogs.TryGetValue(server.Name, out var log) ? log.ToString() : "";
            await File.WriteAllTextAsync(Path.Combine(logs, server.Name + ".log"), earlier + server.Log());
        }
    }

    private static string Number(double? value) => value is { } v && !double.IsNaN(v) ? v.ToString("0.######", CultureInfo.InvariantCulture) : "";

    private static string Number(long? value) => value?.ToString(CultureInfo.InvariantCulture) ?? "";

    private static string Quote(string field) =>
        field.Contains(',', StringComparison.Ordinal) || field.Contains('"', StringComparison.Ordinal) ? "\"" + field.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"" : field;
}
