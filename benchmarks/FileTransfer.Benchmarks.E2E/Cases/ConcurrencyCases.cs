using System.Diagnostics;
using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>
/// Case 6: many simultaneous transfers of the concurrency file, every byte hashed and compared: what
/// each server's peak working set and CPU do under concurrency. For each of <c>--concurrent</c> (64
/// and 256): REST downloads (.NET HttpClient, half over HTTP/1.1, half over HTTP/2) from ours and both
/// nginx, and gRPC DownloadFile on one channel from ours and the Python reference. Then
/// <c>--concurrent-uploads</c> (64) uploads at once the same ways: REST PUT to ours and both nginx's
/// WebDAV, gRPC UploadFile to ours and the Python reference. The reference takes part up to
/// <see cref="PythonMaxConcurrent"/> transfers at once, downloads and uploads alike. Each level, and
/// the uploads, runs in a fresh process of ours, so that a level's peak working set is its own.
/// </summary>
internal sealed class ConcurrencyCases : IBenchmarkCase
{
    public const string Group = "6. Concurrent transfers and memory";
    private const string UploadPrefix = "concurrent-upload-";

    // nginx ends an HTTP/2 connection as a flood ("http2 flood detected") when it has more than
    // 10,000 DATA frames queued on it, or when the client has sent more than 8 MiB of frames beyond
    // eight times its request bodies. 32 downloads on one SocketsHttpHandler connection (stream
    // windows growing to 16 MiB, i.e. 1,024 frames of 16 KiB each; WINDOW_UPDATE and PING frames
    // only) set it off on every attempt, and every nginx row of this case failed; with 8 streams it
    // still did once in 3 runs. The REST downloads therefore open their HTTP/2 connections afresh in
    // each run, 4 streams each (at most 4,096 full windows' worth of frames and 256 MiB per
    // connection at the default size), for every server alike.
    private const int StreamsPerHttp2Connection = 4;

    // The Python reference places ours at 64 concurrent downloads (about 230 MB/s, 19 s a run here).
    // At 256 its one process with a thread per call (256 threads sharing the interpreter lock) had not
    // finished its warm-up of 16 GiB after 10 minutes, which would be 75 s at its 64-stream rate, so a
    // full run cannot afford it and it would say nothing about ours that 64 does not. Its uploads
    // (a thread per call too) are held to the same limit.
    private const int PythonMaxConcurrent = 64;

    public string Name => "concurrency";

    public int Order => 60;

    public string Description => "64 and 256 concurrent downloads (REST: ours, both nginx; gRPC: ours, Python grpcio up to 64) and 64 concurrent uploads";

    public CasePeers Peers => CasePeers.PythonGrpc;

    public async Task RunAsync(BenchContext context)
    {
        var file = context.Concurrent;
        using var http1 = new DotnetClient(http2: false);
        using var http2 = new DotnetClient(http2: true);
        var grpcClients = new List<GrpcClient>();
        try
        {
            foreach (var count in context.Options.ConcurrentCounts)
            {
                var label = $"{count} × {BenchContext.Size(file.Size)} downloads";
                foreach (var (name, server) in context.DownloadServers)
                {
                    var rest = new CaseResult(Group, label, name, "REST HTTP/1.1 + HTTP/2", ".NET HttpClient") { Concurrency = count };
                    context.Plan(rest, server, s => async _ =>
                    {
                        // Fresh HTTP/2 connections for each run, a few streams each (see StreamsPerHttp2Connection).
                        var http2Clients = Enumerable.Range(0, Http2ConnectionsFor(count / 2)).Select(_ => new DotnetClient(http2: true)).ToList();
                        try
                        {
                            return new Transfer((await Task.WhenAll(Enumerable.Range(0, count).Select(i =>
                                DownloadAsync(context, s, i % 2 == 1 ? http2Clients[i / 2 / StreamsPerHttp2Connection] : http1, file)))).Sum());
                        }
                        finally
                        {
                            http2Clients.ForEach(c => c.Dispose());
                        }
                    });
                }

                // gRPC: the streams share one channel (SocketsHttpHandler opens another connection past the server's 100 streams).
                foreach (var (name, server) in GrpcServers(context, count))
                {
                    var grpc = new CaseResult(Group, label, name, GrpcCases.Grpc, GrpcClient.Label + ", one channel") { Concurrency = count };
                    context.Plan(grpc, server, s =>
                    {
                        var client = context.NewGrpcClient(s);
                        grpcClients.Add(client);
                        return async _ => new Transfer((await Task.WhenAll(Enumerable.Range(0, count).Select(_ => GrpcDownloadAsync(client, file)))).Sum());
                    });
                }

                // Each level's rows run together, then ours starts afresh: a peak working set is reset to the
                // current one before every run, and the heap 256 transfers grew (not returned to the system
                // at once) would otherwise become the peak of every 64-transfer run after them.
                await context.Measurer.RunPlannedAsync();
                await context.RestartOursAsync();
            }

            await RunUploadsAsync(context, http1, http2, grpcClients);
        }
        finally
        {
            grpcClients.ForEach(c => c.Dispose());
        }
    }

    private static async Task RunUploadsAsync(BenchContext context, DotnetClient http1, DotnetClient http2, List<GrpcClient> grpcClients)
    {
        var file = context.Concurrent;
        var count = context.Options.ConcurrentUploads;
        var label = $"{count} × {BenchContext.Size(file.Size)} uploads";
        foreach (var (name, server) in context.DownloadServers)
        {
            var rest = new CaseResult(Group, label, name, "REST HTTP/1.1 + HTTP/2", ".NET HttpClient PUT") { Concurrency = count };
            context.Plan(rest, server, s => verify => UploadAllAsync(s, verify, count, file, i => RestUploadAsync(s, i % 2 == 1 ? http2 : http1, file, i)));
        }

        foreach (var (name, server) in GrpcServers(context, count))
        {
            var grpc = new CaseResult(Group, label, name, GrpcCases.Grpc, $"{GrpcClient.Label}, one channel, {BenchContext.Size(context.Options.GrpcUploadChunk)} chunks") { Concurrency = count };
            context.Plan(grpc, server, s =>
            {
                var client = context.NewGrpcClient(s);
                grpcClients.Add(client);
                return verify => UploadAllAsync(s, verify, count, file, async i =>
                {
                    var sha = await client.UploadAsync(UploadName(i), file.Path, context.Options.GrpcUploadChunk);
                    Measurer.Expect(sha == file.Sha256, $"gRPC upload {i}: sha256 {sha}");
                });
            });
        }

        await context.Measurer.RunPlannedAsync();
        DeleteUploads(context.Ours);
        foreach (var nginx in new[] { context.Nginx, context.NginxLog }.OfType<NginxServer>())
        {
            DeleteUploads(nginx);
        }
    }

    private static int Http2ConnectionsFor(int streams) => Math.Max(1, (streams + StreamsPerHttp2Connection - 1) / StreamsPerHttp2Connection);

    /// <summary>The gRPC servers of a level of <paramref name="count"/> transfers: ours (and ours-before), and the Python reference up to <see cref="PythonMaxConcurrent"/>.</summary>
    private static IEnumerable<(string Name, ServerUnderTest? Server)> GrpcServers(BenchContext context, int count)
    {
        yield return ("ours", context.Ours);
        if (context.Baseline is { } baseline)
        {
            yield return (baseline.Name, baseline);
        }

        if (count <= PythonMaxConcurrent)
        {
            yield return (PythonGrpcServer.ServerName, context.Python);
        }
    }

    /// <summary>Runs <paramref name="count"/> uploads at once (timed alone), checks every stored file in the warm-up, then removes them.</summary>
    private static async Task<Transfer> UploadAllAsync(ServerUnderTest server, bool verify, int count, TestFile file, Func<int, Task> upload)
    {
        var stopwatch = Stopwatch.StartNew();
        await Task.WhenAll(Enumerable.Range(0, count).Select(upload));
        stopwatch.Stop();
        if (verify)
        {
            foreach (var i in Enumerable.Range(0, count))
            {
                Measurer.Expect(await TestFiles.Sha256Async(server.PathOf(UploadName(i))) == file.Sha256, $"{server.Name}: stored upload {i} differs from the source");
            }
        }

        DeleteUploads(server);
        return new Transfer(file.Size * count, stopwatch.Elapsed);
    }

    private static string UploadName(int index) => $"{BenchContext.Folder}/{UploadPrefix}{index}.bin";

    private static void DeleteUploads(ServerUnderTest server)
    {
        foreach (var upload in Directory.EnumerateFiles(server.PathOf(BenchContext.Folder), UploadPrefix + "*"))
        {
            File.Delete(upload);
        }
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

    private static async Task RestUploadAsync(ServerUnderTest server, DotnetClient client, TestFile file, int index)
    {
        var (status, sha) = await client.UploadAsync(server.FileUrl(client.Protocol == "HTTP/2", UploadName(index)), file.Path);
        Measurer.Expect((int)status is 200 or 201 or 204, $"upload {index} over {client.Protocol}: {(int)status}");
        Measurer.Expect(server is not OurServer || sha == file.Sha256, $"upload {index}: the reported sha256 {sha} differs from the source");
    }
}
