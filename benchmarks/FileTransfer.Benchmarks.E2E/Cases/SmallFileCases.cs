using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>
/// Case 5: 1 KiB and 64 KiB GETs, the same flags against ours (and ours-before), both nginx and, with
/// <c>--kestrel-bare</c>, Kestrel alone (<see cref="KestrelBareServer"/>), an API key on every request
/// (which only ours checks). At the highest rate the servers reach (wrk over HTTP/1.1, h2load over h2c):
/// requests per second, server CPU per request, peak working set. At a fixed rate (<c>--fixed-rate</c>,
/// h2load <c>--rps</c>, HTTP/1.1 and h2c): p50 and p99 latency.
/// </summary>
internal sealed class SmallFileCases : IBenchmarkCase
{
    public const string Group = "5. Small files";
    public const string WrkClient = "wrk -c32";
    public const string H2loadClient = "h2load -c32 -m4";
    private const int Connections = 32;
    private const int StreamsPerConnection = 4;
    private const int FixedRateConnections = 16;

    public string Name => "small";

    public int Order => 50;

    public string Description => "1 KiB and 64 KiB GETs at full rate (wrk, h2load) and at a fixed rate with p50/p99 latency (h2load --rps), ours, both nginx (and kestrel-bare)";

    public CasePeers Peers => CasePeers.KestrelBare;

    /// <summary>The client column of a fixed-rate row.</summary>
    public static string FixedRateClient(double rate) => $"h2load --rps, {rate:N0} req/s fixed";

    public async Task RunAsync(BenchContext context)
    {
        var seconds = context.Options.SmallSeconds;
        var rate = context.Options.FixedRate;
        foreach (var file in new[] { context.Small1K, context.Small64K })
        {
            var label = $"GET {BenchContext.Size(file.Size)}";
            foreach (var (name, server) in context.SmallFileServers)
            {
                var wrk = new CaseResult(Group, label, name, "HTTP/1.1", WrkClient) { PerRequest = true };
                context.Plan(wrk, server, s => async verify =>
                {
                    if (verify)
                    {
                        await VerifyAsync(s, false, context, file);
                    }

                    var outcome = await LoadClient.WrkForAsync(context.Url(s, false, file), seconds, Connections);
                    Measurer.Expect(outcome.Failed == 0 && outcome.Requests > 0, $"wrk: {outcome}");
                    return new Transfer(outcome.Requests * file.Size, outcome.Duration, outcome.Requests);
                });

                var h2load = new CaseResult(Group, label, name, "HTTP/2", H2loadClient) { PerRequest = true };
                context.Plan(h2load, server, s => async verify =>
                {
                    if (verify)
                    {
                        await VerifyAsync(s, true, context, file);
                    }

                    var outcome = await LoadClient.H2loadForAsync(context.Url(s, true, file), seconds, Connections, StreamsPerConnection);
                    // h2load's data total also counts responses still in flight when the duration ends.
                    Measurer.Expect(outcome.Failed == 0 && outcome.Requests > 0 && outcome.Bytes >= outcome.Requests * file.Size, $"h2load: {outcome}");
                    return new Transfer(outcome.Requests * file.Size, outcome.Duration, outcome.Requests);
                });

                foreach (var http2 in new[] { false, true })
                {
                    var fixedRate = new CaseResult(Group, label, name, http2 ? "HTTP/2" : "HTTP/1.1", FixedRateClient(rate)) { PerRequest = true };
                    context.Plan(fixedRate, server, s => async _ =>
                    {
                        var log = Path.Combine(context.WorkDirectory, "h2load-requests.log");
                        var outcome = await LoadClient.H2loadFixedRateAsync(context.Url(s, http2, file), http2, seconds, FixedRateConnections, rate, log);
                        Measurer.Expect(outcome.Load.Failed == 0 && outcome.Load.Requests > 0, $"h2load --rps: {outcome.Load}");
                        return new Transfer(outcome.Load.Requests * file.Size, outcome.Load.Duration, outcome.Load.Requests, outcome.Latency);
                    });
                }
            }

            await context.Measurer.RunPlannedAsync();
        }
    }

    private static async Task VerifyAsync(ServerUnderTest server, bool http2, BenchContext context, TestFile file)
    {
        var output = Path.Combine(context.WorkDirectory, "small-received.bin");
        var outcome = await CurlClient.DownloadAsync(context.Url(server, http2, file), http2, output);
        Measurer.Expect(outcome.Status == 200 && await TestFiles.Sha256Async(output) == file.Sha256, $"{server.Name}: {file.Name} arrived wrong");
        File.Delete(output);
    }
}
