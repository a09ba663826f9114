using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>Case 1: REST HTTP/1.1 vs HTTP/2 download of the large file with the same .NET client code, from ours and both nginx.</summary>
internal sealed class DotnetDownloadCase : IBenchmarkCase
{
    public const string Group = "1. Large download, .NET HttpClient";

    public string Name => "download";

    public int Order => 10;

    public string Description => "the large file with HttpClient over HTTP/1.1 and HTTP/2, ours and both nginx";

    public async Task RunAsync(BenchContext context)
    {
        var file = context.Large;
        using var http1Client = new DotnetClient(http2: false);
        using var http2Client = new DotnetClient(http2: true);
        foreach (var (name, server) in context.DownloadServers)
        {
            foreach (var http2 in new[] { false, true })
            {
                var client = http2 ? http2Client : http1Client;
                var result = new CaseResult(Group, $"download {BenchContext.Size(file.Size)}", name, client.Protocol, ".NET HttpClient");
                context.Plan(result, server, s => async verify =>
                {
                    var (bytes, sha) = await client.DownloadAsync(context.Url(s, http2, file), verify);
                    Measurer.Expect(bytes == file.Size, $"received {bytes} of {file.Size} bytes");
                    Measurer.Expect(!verify || sha == file.Sha256, "SHA-256 of the received bytes differs from the file's");
                    return new Transfer(bytes);
                });
            }
        }

        await context.Measurer.RunPlannedAsync();
    }
}

/// <summary>Case 2: the large file from ours and both nginx (sendfile) with curl and h2load as neutral clients.</summary>
internal sealed class NeutralDownloadCase : IBenchmarkCase
{
    public const string Group = "2. Large download, neutral clients (ours vs nginx sendfile)";

    public string Name => "nginx";

    public int Order => 20;

    public string Description => "the large file with curl (HTTP/1.1, h2c) and h2load, ours and both nginx";

    public async Task RunAsync(BenchContext context)
    {
        var file = context.Large;
        var label = $"download {BenchContext.Size(file.Size)}";
        foreach (var (name, server) in context.DownloadServers)
        {
            foreach (var http2 in new[] { false, true })
            {
                var curl = new CaseResult(Group, label, name, http2 ? "HTTP/2" : "HTTP/1.1", "curl");
                context.Plan(curl, server, s => verify => CurlAsync(context, s, http2, verify));
            }

            var h2load = new CaseResult(Group, label, name, "HTTP/2", "h2load");
            context.Plan(h2load, server, s => async verify =>
            {
                if (verify)
                {
                    // h2load checks nothing; the warm-up proves the bytes with curl over the same protocol.
                    await CurlAsync(context, s, http2: true, verify: true);
                }

                var outcome = await LoadClient.H2loadOnceAsync(context.Url(s, true, file));
                Measurer.Expect(outcome.Failed == 0 && outcome.Requests == 1 && outcome.Bytes == file.Size, $"h2load: {outcome}");
                return new Transfer(outcome.Bytes, outcome.Duration);
            });
        }

        await context.Measurer.RunPlannedAsync();
    }

    /// <summary>One curl GET of the large file (to a file, checked by SHA-256, when <paramref name="verify"/>).</summary>
    internal static async Task<Transfer> CurlAsync(BenchContext context, ServerUnderTest server, bool http2, bool verify)
    {
        var file = context.Large;
        var output = verify ? Path.Combine(context.WorkDirectory, "received.bin") : "/dev/null";
        var outcome = await CurlClient.DownloadAsync(context.Url(server, http2, file), http2, output);
        Measurer.Expect(outcome.Status == 200 && outcome.Bytes == file.Size, $"curl: status {outcome.Status}, {outcome.Bytes} of {file.Size} bytes");
        if (verify)
        {
            Measurer.Expect(await TestFiles.Sha256Async(output) == file.Sha256, "SHA-256 of the received bytes differs from the file's");
            File.Delete(output);
        }

        return new Transfer(outcome.Bytes, outcome.Duration);
    }
}
