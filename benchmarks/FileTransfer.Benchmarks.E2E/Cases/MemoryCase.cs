using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>
/// Case 0: the server's working set when idle and during one large download, each run in a process
/// of its own (ours, and ours-before when there is one), so that a figure is never what an earlier
/// run left behind: idle is the resident set a few seconds after start, before any request; a
/// download's figure is the peak (VmHWM, reset after start) during one GET of the large file over
/// REST HTTP/1.1, REST h2c (curl) or gRPC (the harness's client). Issue 26's memory goals are judged here.
/// </summary>
internal sealed class MemoryCase : IBenchmarkCase
{
    public const string Group = "0. Server memory, a fresh process per run";
    public const string Idle = "idle after start";

    // Long enough for start-up work to end (hosted services, the first timers), short next to a run.
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(3);

    public string Name => "memory";

    public int Order => 5;

    public string Description => "idle working set after start, and the peak during one large download (REST HTTP/1.1, h2c, gRPC), a fresh server per run";

    public async Task RunAsync(BenchContext context)
    {
        var servers = context.Baseline is null ? ["ours"] : new[] { "ours", context.Baseline.Name };
        var file = context.Large;
        var rows = new List<(CaseResult Result, Func<OurServer, bool, Task<Transfer>>? Transfer)>();
        foreach (var server in servers)
        {
            rows.Add((new CaseResult(Group, Idle, server, "–", "none"), null));
            var label = $"download {BenchContext.Size(file.Size)}";
            rows.Add((new CaseResult(Group, label, server, "HTTP/1.1", "curl"), (s, verify) => NeutralDownloadCase.CurlAsync(context, s, http2: false, verify)));
            rows.Add((new CaseResult(Group, label, server, "HTTP/2", "curl"), (s, verify) => NeutralDownloadCase.CurlAsync(context, s, http2: true, verify)));
            rows.Add((new CaseResult(Group, label, server, GrpcCases.Grpc, GrpcClient.Label), (s, verify) => GrpcAsync(context, s, verify)));
        }

        foreach (var (result, _) in rows)
        {
            context.Measurer.Record(result);
        }

        for (var round = 1; round <= context.Options.Runs; round++)
        {
            foreach (var (result, transfer) in rows.Where(r => r.Result.Error is null))
            {
                await MeasureAsync(context, result, transfer, round);
            }
        }
    }

    private static async Task MeasureAsync(BenchContext context, CaseResult result, Func<OurServer, bool, Task<Transfer>>? transfer, int round)
    {
        OurServer? server = null;
        try
        {
            var smoke = context.Options.Smoke;
            server = await context.StartFreshAsync(result.Server);
            await Task.Delay(smoke ? TimeSpan.Zero : Settle);
            if (transfer is null)
            {
                result.Samples.Add(new Sample(round, TimeSpan.Zero, 0, 0, null, server.WorkingSetBytes(), 0, null, LoadMonitor.Read()));
                return;
            }

            if (round == 1 && !smoke)
            {
                // The bytes are proved once, in a process of their own: the measured runs start as idle.
                await transfer(server, true);
                await server.DisposeAsync();
                server = await context.StartFreshAsync(result.Server);
                await Task.Delay(Settle);
            }

            server.ResetPeak();
            var before = await server.ReadAsync();
            // A smoke run proves the bytes in its one run (a process fewer per row).
            var outcome = await transfer(server, smoke);
            var after = await server.ReadAsync();
            result.Samples.Add(new Sample(
                round,
                outcome.Duration ?? TimeSpan.Zero,
                outcome.Bytes,
                outcome.Requests,
                after.AllocatedBytes - before.AllocatedBytes - server.ReadingOverheadBytes,
                after.PeakWorkingSetBytes,
                after.CpuMilliseconds - before.CpuMilliseconds,
                null,
                LoadMonitor.Read()));
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            result.Error = e.Message + (server is null ? "" : $" (server log: {server.OutputTail()})");
            Console.Error.WriteLine($"[FAIL] {result.Key}: {e}");
        }
        finally
        {
            if (server is not null)
            {
                context.KeepLog(server);
                await server.DisposeAsync();
            }
        }
    }

    private static async Task<Transfer> GrpcAsync(BenchContext context, ServerUnderTest server, bool verify)
    {
        using var client = context.NewGrpcClient(server);
        var stopwatch = System.Diagnostics.Stopwatch.StartNew();
        var (bytes, sha) = await client.DownloadAsync(BenchContext.GrpcName(context.Large), verify);
        stopwatch.Stop();
        Measurer.Expect(bytes == context.Large.Size, $"received {bytes} of {context.Large.Size} bytes");
        Measurer.Expect(!verify || sha == context.Large.Sha256, "SHA-256 of the received bytes differs from the file's");
        return new Transfer(bytes, stopwatch.Elapsed);
    }
}
