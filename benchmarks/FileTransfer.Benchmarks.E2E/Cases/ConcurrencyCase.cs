using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>
/// Case 6: many simultaneous large transfers, alternating HTTP/1.1 and HTTP/2, every byte that
/// arrived hashed and compared: what the server's peak working set does under concurrency.
/// The same with gRPC DownloadFile on one channel, and half gRPC, half REST. With the upload API
/// present, a last run mixes REST downloads and uploads half and half.
/// </summary>
internal static class ConcurrencyCase
{
    public const string Group = "6. Concurrency and memory";

    public static async Task RunAsync(BenchContext context)
    {
        var file = context.Concurrent;
        var count = context.Options.Concurrent;
        var runs = Math.Min(context.Options.Runs, 3);
        using var http1 = new DotnetClient(http2: false);
        using var http2 = new DotnetClient(http2: true);
        var label = $"{count} × {BenchContext.Size(file.Size)} downloads";
        foreach (var (name, server) in context.BothServers)
        {
            var result = new CaseResult(Group, label, name, "HTTP/1.1 + HTTP/2", ".NET HttpClient");
            context.Plan(result, server, s => async _ =>
                new Transfer((await Task.WhenAll(Enumerable.Range(0, count).Select(i => DownloadAsync(context, s, i % 2 == 1 ? http2 : http1, file)))).Sum()));
        }

        // gRPC: all streams on one channel (SocketsHttpHandler opens a second connection only past
        // the server's 100 concurrent streams); then half gRPC, half REST over both protocols.
        using var grpc = context.NewGrpcClient(context.Ours);
        var grpcRow = new CaseResult(Group, $"{count} × {BenchContext.Size(file.Size)} gRPC downloads", "ours", GrpcCases.Grpc, GrpcClient.Label + ", one channel");
        context.Plan(grpcRow, context.Ours, s => async _ =>
            new Transfer((await Task.WhenAll(Enumerable.Range(0, count).Select(_ => GrpcDownloadAsync(grpc, file)))).Sum()));
        var half = new CaseResult(Group, $"{count / 2} gRPC + {count - (count / 2)} REST downloads × {BenchContext.Size(file.Size)}", "ours", "gRPC + REST HTTP/1.1 + HTTP/2", ".NET Grpc.Net.Client + HttpClient");
        context.Plan(half, context.Ours, s => async _ =>
            new Transfer((await Task.WhenAll(Enumerable.Range(0, count).Select(i => (i % 4) switch
            {
                0 or 2 => GrpcDownloadAsync(grpc, file),
                1 => DownloadAsync(context, s, http1, file),
                _ => DownloadAsync(context, s, http2, file),
            }))).Sum()));

        await context.Measurer.RunPlannedAsync(runs);

        var mixed = new CaseResult(Group, $"{count / 2} downloads + {count - (count / 2)} uploads × {BenchContext.Size(file.Size)}", "ours", "HTTP/1.1 + HTTP/2", ".NET HttpClient");
        if (context.UploadsMissing is { } missing)
        {
            context.Measurer.Skip(mixed, missing);
            return;
        }

        context.Plan(mixed, context.Ours, s => async _ =>
        {
            var transfers = Enumerable.Range(0, count).Select(i => (i % 4) switch
            {
                0 => DownloadAsync(context, context.Ours, http1, file),
                1 => DownloadAsync(context, context.Ours, http2, file),
                2 => UploadAsync(context, http1, file, i),
                _ => UploadAsync(context, http2, file, i),
            });
            var bytes = (await Task.WhenAll(transfers)).Sum();
            foreach (var upload in Directory.EnumerateFiles(context.Ours.PathOf(BenchContext.Folder), "concurrent-upload-*"))
            {
                File.Delete(upload);
            }

            return new Transfer(bytes);
        });
        await context.Measurer.RunPlannedAsync(runs);
    }

    private static async Task<long> DownloadAsync(BenchContext context, ServerUnderTest server, DotnetClient client, TestFile file)
    {
        var (bytes, sha) = await client.DownloadAsync(context.Url(server, client.Protocol == "HTTP/2", file), hash: true);
        Measurer.Expect(bytes == file.Size && sha == file.Sha256, $"{server.Name} {client.Protocol}: {bytes} bytes arrived with a different SHA-256");
        return bytes;
    }

    private static async Task<long> GrpcDownloadAsync(GrpcClient client, TestFile file)
    {
        var (bytes, sha) = await client.DownloadAsync(BenchContext.GrpcName(file), hash: true);
        Measurer.Expect(bytes == file.Size && sha == file.Sha256, $"gRPC: {bytes} bytes arrived with a different SHA-256");
        return bytes;
    }

    private static async Task<long> UploadAsync(BenchContext context, DotnetClient client, TestFile file, int index)
    {
        var name = $"{BenchContext.Folder}/concurrent-upload-{index}.bin";
        var (status, sha) = await client.UploadAsync(context.Ours.FileUrl(client.Protocol == "HTTP/2", name), file.Path);
        Measurer.Expect((int)status is 200 or 201 && sha == file.Sha256, $"upload {index} over {client.Protocol}: {(int)status}, sha256 {sha}");
        return file.Size;
    }
}
