using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;
using FileTransfer.Server.Grpc;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>
/// Case 9: gRPC DownloadFile and UploadFile at chunk sizes from 16 B to 4 MiB. The download chunk
/// is the server's (<c>Grpc:ChunkSizeBytes</c>), so each size gets its own copy of our server; the
/// upload chunk is the client's, sent to our main server. Small chunks use a smaller file
/// (<c>--sweep-messages</c> chunks at most) so that the sweep ends; every size runs round-robin
/// with all the others, so that the machine's drift spreads over the whole curve.
/// </summary>
internal sealed class GrpcChunkSweep : IBenchmarkCase
{
    public const string Group = "9. gRPC chunk-size sweep";
    private const string Target = "sweep-upload.bin";

    public string Name => "sweep";

    public int Order => 90;

    public string Description => "gRPC DownloadFile and UploadFile at chunk sizes 16 B ... 4 MiB (ours; one server copy per download chunk size)";

    public async Task RunAsync(BenchContext context)
    {
        Task<OurServer> StartOurs(string name, IReadOnlyDictionary<string, string> extra) =>
            context.StartOursAsync(name, context.Options.SweepServer ?? context.OursBuild, extra);

        var options = context.Options;
        var files = new Dictionary<long, TestFile>();
        var servers = new List<OurServer>();
        var clients = new List<GrpcClient>();
        try
        {
            var uploads = context.NewGrpcClient(context.Ours);
            clients.Add(uploads);
            foreach (var chunk in options.SweepChunks)
            {
                var size = Math.Min(options.SweepSize, (long)chunk * options.SweepMessages);
                if (!files.TryGetValue(size, out var file))
                {
                    file = await TestFiles.CreateAsync(context.FilesDirectory, $"sweep-{size}.bin", size);
                    await TestFiles.LinkIntoAsync(file, Path.Combine(context.OursRoot, BenchContext.Folder));
                    files[size] = file;
                }

                if (chunk < GrpcTransferOptions.MinChunkBytes && options.SweepServer is null)
                {
                    Console.WriteLine($"sweep: download at {BenchContext.Size(chunk)} skipped: the product refuses chunks below {BenchContext.Size(GrpcTransferOptions.MinChunkBytes)} (--sweep-server DLL serves them from a build that accepts them)");
                }
                else
                {
                    await PlanDownloadAsync(context, StartOurs, servers, clients, chunk, size, file);
                }

                var upload = new CaseResult(Group, $"upload, {BenchContext.Size(chunk)} chunks, {BenchContext.Size(size)} file", "ours", GrpcCases.Grpc, GrpcClient.Label) { ChunkBytes = chunk };
                context.Measurer.Plan(upload, context.Ours, async verify =>
                {
                    var sha = await uploads.UploadAsync($"{BenchContext.Folder}/{Target}", file.Path, chunk);
                    Measurer.Expect(sha == file.Sha256, $"chunk {chunk}: the reported sha256 differs from the source");
                    if (verify)
                    {
                        Measurer.Expect(await TestFiles.Sha256Async(context.Ours.PathOf($"{BenchContext.Folder}/{Target}")) == file.Sha256, $"chunk {chunk}: the stored file differs from the source");
                    }

                    return new Transfer(file.Size);
                });
            }

            await context.Measurer.RunPlannedAsync();
        }
        finally
        {
            clients.ForEach(c => c.Dispose());
            foreach (var server in servers)
            {
                await server.DisposeAsync();
            }

            File.Delete(context.Ours.PathOf($"{BenchContext.Folder}/{Target}"));
            foreach (var file in files.Values)
            {
                File.Delete(file.Path);
                File.Delete(Path.Combine(context.OursRoot, BenchContext.Folder, file.Name));
            }
        }
    }

    /// <summary>Plans the download at one chunk size, from its own copy of our server.</summary>
    private static async Task PlanDownloadAsync(BenchContext context, Func<string, IReadOnlyDictionary<string, string>, Task<OurServer>> startOurs, List<OurServer> servers, List<GrpcClient> clients, int chunk, long size, TestFile file)
    {
        var download = new CaseResult(Group, $"download, {BenchContext.Size(chunk)} chunks, {BenchContext.Size(size)} file", "ours", GrpcCases.Grpc, GrpcClient.Label) { ChunkBytes = chunk };
        try
        {
            var server = await startOurs($"ours-chunk-{chunk}", new Dictionary<string, string> { ["Grpc__ChunkSizeBytes"] = chunk.ToString(System.Globalization.CultureInfo.InvariantCulture) });
            servers.Add(server);
            var downloads = context.NewGrpcClient(server);
            clients.Add(downloads);
            context.Measurer.Plan(download, server, async verify =>
            {
                var (bytes, sha) = await downloads.DownloadAsync(BenchContext.GrpcName(file), verify);
                Measurer.Expect(bytes == file.Size && (!verify || sha == file.Sha256), $"chunk {chunk}: {bytes} of {file.Size} bytes, SHA-256 {(sha == file.Sha256 ? "equal" : "differs")}");
                return new Transfer(bytes);
            });
        }
        catch (InvalidOperationException e)
        {
            context.Measurer.Fail(download, e.Message.Split('\n')[0]);
        }
    }
}
