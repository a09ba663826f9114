using System.Diagnostics;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>What one transfer (or load run) reports; a null duration means "use the harness's stopwatch".</summary>
internal sealed record Transfer(long Bytes, TimeSpan? Duration = null, long Requests = 1, Latency? Latency = null);

/// <summary>
/// Runs cases: one verified warm-up each (bytes checked by SHA-256, file now in the page cache),
/// then measured runs, each bracketed by server readings (allocations, peak working set reset
/// before, CPU) and the harness's own allocation counter when the client is .NET code in this process.
/// </summary>
internal sealed class Measurer(HarnessOptions options, List<CaseResult> results)
{
    public HarnessOptions Options => options;

    private readonly List<(CaseResult Result, ServerUnderTest Server, Func<bool, Task<Transfer>> Transfer)> _planned = [];

    /// <summary>Queues a case; <see cref="RunPlannedAsync"/> runs every queued case.</summary>
    public void Plan(CaseResult result, ServerUnderTest server, Func<bool, Task<Transfer>> transfer)
    {
        results.Add(result);
        _planned.Add((result, server, transfer));
    }

    /// <summary>
    /// Warms up and verifies each queued case, then measures them round-robin (run 1 of every
    /// case, then run 2, ...), so that the machine's drift touches all of them alike and the
    /// ratios between them, taken round by round, compare runs made next to each other.
    /// </summary>
    public async Task RunPlannedAsync()
    {
        var planned = _planned.ToList();
        _planned.Clear();
        foreach (var (result, server, transfer) in planned)
        {
            Console.Error.WriteLine($"[warm-up] {result.Group}: {result.Name} · {result.Server} · {result.Protocol} · {result.Client}");
            await GuardAsync(result, server, () => transfer(true));
        }

        for (var round = 1; round <= options.Runs; round++)
        {
            foreach (var (result, server, transfer) in planned.Where(p => p.Result.Error is null))
            {
                await GuardAsync(result, server, () => MeasureOnceAsync(round, result, server, transfer));
            }
        }
    }

    private static async Task MeasureOnceAsync(int round, CaseResult result, ServerUnderTest server, Func<bool, Task<Transfer>> transfer)
    {
        var dotnetClient = result.Client.StartsWith(".NET", StringComparison.Ordinal);
        server.ResetPeak();
        var before = await server.ReadAsync();
        var clientBefore = GC.GetTotalAllocatedBytes(precise: true);
        var stopwatch = Stopwatch.StartNew();
        var outcome = await transfer(false);
        stopwatch.Stop();
        var clientAfter = GC.GetTotalAllocatedBytes(precise: true);
        var after = await server.ReadAsync();
        var overhead = server is OurServer ours ? ours.ReadingOverheadBytes : 0;
        result.Samples.Add(new Sample(
            round,
            outcome.Duration ?? stopwatch.Elapsed,
            outcome.Bytes,
            outcome.Requests,
            after.AllocatedBytes - before.AllocatedBytes - overhead is { } allocated ? Math.Max(0, allocated) : null,
            after.PeakWorkingSetBytes,
            after.CpuMilliseconds - before.CpuMilliseconds,
            dotnetClient ? clientAfter - clientBefore : null,
            LoadMonitor.Read(),
            outcome.Latency));
    }

    private static async Task GuardAsync(CaseResult result, ServerUnderTest server, Func<Task> action)
    {
        try
        {
            for (var attempt = 1; ; attempt++)
            {
                var floods = (server as NginxServer)?.FloodClosures() ?? 0;
                try
                {
                    await action();
                    break;
                }
                catch (Exception) when (attempt < 3 && server is NginxServer nginx && nginx.FloodClosures() > floods)
                {
                    // Not a wrong byte: nginx's HTTP/2 flood guard closed the connection. Said in the report, run again.
                    result.NginxFloodRetries++;
                }
            }
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            result.Error = server switch
            {
                NginxServer nginx => $"{e.Message} (nginx error.log: {nginx.ErrorLogTail()})",
                OurServer ours => $"{e.Message} (server log: {ours.OutputTail()})",
                _ => e.Message,
            };
            Console.Error.WriteLine($"[FAIL] {result.Key}: {e}");
        }
    }

    /// <summary>Adds a row that a case measures itself (a fresh server per run, see MemoryCase) to the report.</summary>
    public void Record(CaseResult result) => results.Add(result);

    public void Skip(CaseResult result, string reason)
    {
        result.Skipped = reason;
        results.Add(result);
        Console.Error.WriteLine($"[skip] {result.Key}: {reason}");
    }

    /// <summary>Records a case that could not even start (e.g. its server refused its settings): the harness exits non-zero.</summary>
    public void Fail(CaseResult result, string error)
    {
        result.Error = error;
        results.Add(result);
        Console.Error.WriteLine($"[FAIL] {result.Key}: {error}");
    }

    public static void Expect(bool condition, string what)
    {
        if (!condition)
        {
            throw new InvalidOperationException(what);
        }
    }
}
