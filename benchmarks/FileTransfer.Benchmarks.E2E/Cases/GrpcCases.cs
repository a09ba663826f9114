using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>
/// Case 7, the published 4 GB table like for like: the <c>--table-size</c> file downloaded with
/// gRPC DownloadFile from the published "naive" and "optimized" services, from ours (with the
/// generated client and with a pooled-chunk client) and from the Python grpcio reference server,
/// and with REST over HTTP/1.1 and HTTP/2 from ours, every client in this process, all round-robin.
/// Case 8: the large file uploaded with gRPC UploadFile (ours, Python) next to REST PUT over
/// HTTP/1.1 and HTTP/2. The baseline copy of our server (<c>--baseline-env</c>) gets ours's rows.
/// </summary>
internal sealed class GrpcCases : IBenchmarkCase
{
    public const string DownloadGroup = "7. The published 4 GB table: gRPC and REST download, same .NET process";
    public const string UploadGroup = "8. gRPC and REST upload, same .NET process";
    public const string Grpc = "gRPC (HTTP/2)";
    public const string Naive = "grpc-naive";
    public const string Optimized = "grpc-optimized";
    private const string Target = "uploaded-grpc.bin";

    public string Name => "grpc";

    public int Order => 70;

    public string Description => "the published 4 GB table (gRPC naive, optimized, ours, Python grpcio; REST HTTP/1.1, HTTP/2) and gRPC vs REST uploads";

    public CasePeers Peers => CasePeers.PublishedGrpc | CasePeers.PythonGrpc;

    public async Task RunAsync(BenchContext context)
    {
        await RunDownloadsAsync(context);
        await RunUploadsAsync(context);
    }

    private static async Task RunDownloadsAsync(BenchContext context)
    {
        var file = context.Table;
        var label = $"download {BenchContext.Size(file.Size)}";
        using var http1 = new DotnetClient(http2: false);
        using var http2 = new DotnetClient(http2: true);
        var clients = new List<GrpcClient>();
        try
        {
            foreach (var (name, server) in Servers(context, published: true))
            {
                var row = new CaseResult(DownloadGroup, label, name, Grpc, GrpcClient.Label);
                context.Plan(row, server, s =>
                {
                    var grpc = context.NewGrpcClient(s);
                    clients.Add(grpc);
                    return async verify =>
                    {
                        var (bytes, sha) = await grpc.DownloadAsync(BenchContext.GrpcName(file), verify);
                        return Received(file, bytes, sha, verify);
                    };
                });
                if (server is not OurServer ours || name is Naive or Optimized)
                {
                    continue;
                }

                var pooled = new CaseResult(DownloadGroup, label, name, Grpc, GrpcClient.PooledLabel);
                context.Plan(pooled, ours, s =>
                {
                    var grpc = context.NewGrpcClient(s);
                    clients.Add(grpc);
                    return async verify =>
                    {
                        var (bytes, sha) = await grpc.DownloadPooledAsync(BenchContext.GrpcName(file), verify);
                        return Received(file, bytes, sha, verify);
                    };
                });

                foreach (var client in new[] { http1, http2 })
                {
                    var rest = new CaseResult(DownloadGroup, label, name, "REST " + client.Protocol, ".NET HttpClient");
                    context.Plan(rest, ours, s => async verify =>
                    {
                        var (bytes, sha) = await client.DownloadAsync(context.Url(s, client.Protocol == "HTTP/2", file), verify);
                        return Received(file, bytes, sha, verify);
                    });
                }
            }

            await context.Measurer.RunPlannedAsync();
        }
        finally
        {
            clients.ForEach(c => c.Dispose());
        }
    }

    private static async Task RunUploadsAsync(BenchContext context)
    {
        var file = context.Large;
        var label = $"upload {BenchContext.Size(file.Size)}";
        var chunk = context.Options.GrpcUploadChunk;
        using var http1 = new DotnetClient(http2: false);
        using var http2 = new DotnetClient(http2: true);
        var clients = new List<GrpcClient>();
        try
        {
            foreach (var (name, server) in Servers(context, published: false))
            {
                var row = new CaseResult(UploadGroup, label, name, Grpc, $"{GrpcClient.Label}, {BenchContext.Size(chunk)} chunks");
                context.Plan(row, server, s =>
                {
                    var grpc = context.NewGrpcClient(s);
                    clients.Add(grpc);
                    return async verify =>
                    {
                        var sha = await grpc.UploadAsync($"{BenchContext.Folder}/{Target}", file.Path, chunk);
                        Measurer.Expect(sha == file.Sha256, $"UploadFile: the reported sha256 {sha} differs from the source");
                        await VerifyStoredAsync(s, verify, file);
                        return new Transfer(file.Size);
                    };
                });

                if (server is not OurServer ours)
                {
                    continue;
                }

                foreach (var client in new[] { http1, http2 })
                {
                    var rest = new CaseResult(UploadGroup, label, name, "REST " + client.Protocol, ".NET HttpClient PUT");
                    context.Plan(rest, ours, s => async verify =>
                    {
                        var (status, sha) = await client.UploadAsync(s.FileUrl(client.Protocol == "HTTP/2", $"{BenchContext.Folder}/{Target}"), file.Path);
                        Measurer.Expect((int)status is 200 or 201 && sha == file.Sha256, $"PUT answered {(int)status}, sha256 {sha}");
                        await VerifyStoredAsync(s, verify, file);
                        return new Transfer(file.Size);
                    });
                }
            }

            await context.Measurer.RunPlannedAsync();
            File.Delete(context.Ours.PathOf($"{BenchContext.Folder}/{Target}"));
        }
        finally
        {
            clients.ForEach(c => c.Dispose());
        }
    }

    /// <summary>Ours, the baseline copy when there is one, (downloads) the published services, and the Python reference.</summary>
    private static IEnumerable<(string Name, ServerUnderTest? Server)> Servers(BenchContext context, bool published)
    {
        if (published)
        {
            yield return (Naive, context.Naive);
            yield return (Optimized, context.Optimized);
        }

        yield return ("ours", context.Ours);
        if (context.Baseline is { } baseline)
        {
            yield return (baseline.Name, baseline);
        }

        yield return (PythonGrpcServer.ServerName, context.Python);
    }

    /// <summary>A download's check: every byte of <paramref name="file"/> arrived and, when verifying, the same SHA-256.</summary>
    private static Transfer Received(TestFile file, long bytes, string? sha, bool verify)
    {
        Measurer.Expect(bytes == file.Size, $"received {bytes} of {file.Size} bytes");
        Measurer.Expect(!verify || sha == file.Sha256, "SHA-256 of the received bytes differs from the file's");
        return new Transfer(bytes);
    }

    private static async Task VerifyStoredAsync(ServerUnderTest server, bool verify, TestFile file)
    {
        if (verify)
        {
            var stored = server.PathOf($"{BenchContext.Folder}/{Target}");
            Measurer.Expect(await TestFiles.Sha256Async(stored) == file.Sha256, $"{server.Name}: the stored file's SHA-256 differs from the source");
        }
    }
}
