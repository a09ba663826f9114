using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>
/// Case 5: small files at a high rate, wrk over HTTP/1.1 and h2load over h2c, the same flags
/// against both servers; requests per second and (ours) server bytes allocated per request.
/// </summary>
internal static class SmallFileCases
{
    public const string Group = "5. Small files at high rate";
    private const int Connections = 32;
    private const int StreamsPerConnection = 4;

    public static async Task RunAsync(BenchContext context)
    {
        var runs = Math.Min(context.Options.Runs, 3);
        var seconds = context.Options.SmallSeconds;
        foreach (var file in new[] { context.Small1K, context.Small64K })
        {
            var label = $"GET {BenchContext.Size(file.Size)}";
            foreach (var (name, server) in context.DownloadServers)
            {
                var wrk = new CaseResult(Group, label, name, "HTTP/1.1", $"wrk -c{Connections}");
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

                var h2load = new CaseResult(Group, label, name, "HTTP/2", $"h2load -c{Connections} -m{StreamsPerConnection}");
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
            }

            await context.Measurer.RunPlannedAsync(runs);
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
