using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>
/// Case 10: the cost of one unary call. GetFileInfo of the 1 KiB file, one call after another on
/// one channel, <c>--unary-calls</c> per run: server bytes allocated and CPU per call, against the
/// 330 B per trivial unary call the .NET 5 gRPC work reported.
/// </summary>
internal sealed class GrpcUnaryCase : IBenchmarkCase
{
    public const string Group = "10. gRPC unary cost";

    public string Name => "unary";

    public int Order => 100;

    public string Description => "GetFileInfo calls one after another on one channel: server bytes and CPU per call";

    public async Task RunAsync(BenchContext context)
    {
        var calls = context.Options.UnaryCalls;
        var file = context.Small1K;
        List<OurServer> servers = context.Baseline is null ? [context.Ours] : [context.Ours, context.Baseline];
        var clients = new List<GrpcClient>();
        try
        {
            // ours-before (--baseline-server, --baseline-env) gets the same calls, round-robin with ours.
            foreach (var server in servers)
            {
                var client = context.NewGrpcClient(server);
                clients.Add(client);
                var row = new CaseResult(Group, $"{calls:N0} × GetFileInfo", server.Name, GrpcCases.Grpc, GrpcClient.Label + ", one channel") { PerRequest = true };
                context.Measurer.Plan(row, server, async verify =>
                {
                    // The warm-up pays for JIT and the digest of the file (computed once, then read from its sidecar).
                    var count = verify ? Math.Min(calls, 2_000) : calls;
                    for (var i = 0; i < count; i++)
                    {
                        Measurer.Expect(await client.GetFileInfoAsync(BenchContext.GrpcName(file)) == file.Size, "GetFileInfo: wrong size");
                    }

                    return new Transfer(0, Requests: count);
                });
            }

            await context.Measurer.RunPlannedAsync();
        }
        finally
        {
            foreach (var client in clients)
            {
                client.Dispose();
            }
        }
    }
}
