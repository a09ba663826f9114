using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>
/// Case 7: the large file downloaded with gRPC DownloadFile (the product, and the naive baseline
/// service) next to REST over HTTP/1.1 and HTTP/2, every client in this process, runs round-robin:
/// the four columns of the published 4 GB table. Case 8: the same file uploaded with gRPC UploadFile
/// next to REST PUT over HTTP/1.1 and HTTP/2. The baseline copy of our server (<c>--baseline-env</c>)
/// gets the same rows, for before/after comparisons.
/// </summary>
internal static class GrpcCases
{
    public const string DownloadGroup = "7. gRPC and REST download, same .NET process";
    public const string UploadGroup = "8. gRPC and REST upload, same .NET process";
    public const string Grpc = "gRPC (HTTP/2)";
    public const string Naive = "grpc-naive";
    private const string Target = "uploaded-grpc.bin";

    public static async Task RunDownloadsAsync(BenchContext context)
    {
        var file = context.Large;
        var label = $"download {BenchContext.Size(file.Size)}";
        using var http1 = new DotnetClient(http2: false);
        using var http2 = new DotnetClient(http2: true);
        var clients = new List<GrpcClient>();
        try
        {
            foreach (var (name, server) in Servers(context, naive: true))
            {
                var grpc = context.NewGrpcClient(server);
                clients.Add(grpc);
                var row = new CaseResult(DownloadGroup, label, name, Grpc, GrpcClient.Label);
                context.Measurer.Plan(row, server, async verify =>
                {
                    var (bytes, sha) = await grpc.DownloadAsync(BenchContext.GrpcName(file), verify);
                    return Received(file, bytes, sha, verify);
                });
                if (server == context.Naive)
                {
                    continue;
                }

                var pooled = new CaseResult(DownloadGroup, label, name, Grpc, GrpcClient.PooledLabel);
                context.Measurer.Plan(pooled, server, async verify =>
                {
                    var (bytes, sha) = await grpc.DownloadPooledAsync(BenchContext.GrpcName(file), verify);
                    return Received(file, bytes, sha, verify);
                });

                foreach (var client in new[] { http1, http2 })
                {
                    var rest = new CaseResult(DownloadGroup, label, name, "REST " + client.Protocol, ".NET HttpClient");
                    context.Measurer.Plan(rest, server, async verify =>
                    {
                        var (bytes, sha) = await client.DownloadAsync(context.Url(server, client.Protocol == "HTTP/2", file), verify);
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

    public static async Task RunUploadsAsync(BenchContext context)
    {
        var file = context.Large;
        var label = $"upload {BenchContext.Size(file.Size)}";
        var chunk = context.Options.GrpcUploadChunk;
        using var http1 = new DotnetClient(http2: false);
        using var http2 = new DotnetClient(http2: true);
        var clients = new List<GrpcClient>();
        try
        {
            foreach (var (name, server) in Servers(context, naive: false))
            {
                if (context.UploadsMissing is { } missing)
                {
                    context.Measurer.Skip(new CaseResult(UploadGroup, label, name, Grpc, GrpcClient.Label), missing);
                    continue;
                }

                var grpc = context.NewGrpcClient(server);
                clients.Add(grpc);
                var row = new CaseResult(UploadGroup, label, name, Grpc, $"{GrpcClient.Label}, {BenchContext.Size(chunk)} chunks");
                context.Measurer.Plan(row, server, async verify =>
                {
                    var sha = await grpc.UploadAsync($"{BenchContext.Folder}/{Target}", file.Path, chunk);
                    Measurer.Expect(sha == file.Sha256, $"UploadFile: the reported sha256 {sha} differs from the source");
                    await VerifyStoredAsync(server, verify, file);
                    return new Transfer(file.Size);
                });

                foreach (var client in new[] { http1, http2 })
                {
                    var rest = new CaseResult(UploadGroup, label, name, "REST " + client.Protocol, ".NET HttpClient PUT");
                    context.Measurer.Plan(rest, server, async verify =>
                    {
                        var (status, sha) = await client.UploadAsync(server.FileUrl(client.Protocol == "HTTP/2", $"{BenchContext.Folder}/{Target}"), file.Path);
                        Measurer.Expect((int)status is 200 or 201 && sha == file.Sha256, $"PUT answered {(int)status}, sha256 {sha}");
                        await VerifyStoredAsync(server, verify, file);
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

    /// <summary>Ours, the baseline copy when there is one, and (downloads) the naive service.</summary>
    private static IEnumerable<(string Name, OurServer Server)> Servers(BenchContext context, bool naive)
    {
        yield return ("ours", context.Ours);
        if (context.Baseline is { } baseline)
        {
            yield return (baseline.Name, baseline);
        }

        if (naive && context.Naive is { } service)
        {
            yield return (Naive, service);
        }
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
