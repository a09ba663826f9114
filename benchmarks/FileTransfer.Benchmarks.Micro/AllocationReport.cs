using System.Globalization;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

namespace FileTransfer.Benchmarks.Micro;

/// <summary>
/// Reads the GC allocation ticks of a <c>dotnet-trace collect --profile gc-verbose</c> capture (one
/// event per ~100 KB allocated, with the type that crossed the threshold) and prints the types that
/// account for most of the sampled bytes: where a server's allocations per request or per GiB go.
/// </summary>
internal static class AllocationReport
{
    public static int Print(string tracePath, int top)
    {
        var bytes = new Dictionary<string, long>(StringComparer.Ordinal);
        var ticks = new Dictionary<string, int>(StringComparer.Ordinal);
        using (var source = new EventPipeEventSource(tracePath))
        {
            source.Clr.GCAllocationTick += (GCAllocationTickTraceData e) =>
            {
                var type = e.TypeName ?? "?";
                bytes[type] = bytes.GetValueOrDefault(type) + e.AllocationAmount64;
                ticks[type] = ticks.GetValueOrDefault(type) + 1;
            };
            source.Process();
        }

        var total = bytes.Values.Sum();
        Console.WriteLine($"{total / 1e6:N1} MB sampled in {ticks.Values.Sum():N0} allocation ticks; top {top} types:");
        Console.WriteLine("| type | sampled MB | share |");
        Console.WriteLine("|---|--:|--:|");
        foreach (var (type, amount) in bytes.OrderByDescending(p => p.Value).Take(top))
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| `{type}` | {amount / 1e6:N2} | {100.0 * amount / total:N1} % |"));
        }

        return 0;
    }
}
