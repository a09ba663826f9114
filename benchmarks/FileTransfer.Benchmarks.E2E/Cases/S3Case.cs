using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>
/// Case 11: the large file through the S3 backend on the Ceph RGW named by FT_S3_* (<see cref="RgwStore"/>),
/// in the same run as ours on the local disk: REST and gRPC downloads proxied by ours, redirected to a
/// presigned URL (REST 307, gRPC GetDownloadUrl then a GET), and plain GETs of that URL on RGW
/// (the store alone); REST and gRPC uploads to both backends. Every row's client is .NET over HTTP/1.1
/// for REST (RGW's frontend speaks no h2c) and h2c for gRPC. The server figures are ours's: the
/// RGW's own CPU and memory are not in them.
/// </summary>
internal sealed class S3Case : IBenchmarkCase
{
    public const string Group = "11. S3 backend (Ceph RGW): proxied, redirected and direct";
    private const string Local = "ours (local disk)";
    private const string Proxied = "ours on S3, proxied";
    private const string Redirected = "ours on S3, redirected";
    private const string Direct = "RGW direct (presigned GET)";
    private const string Uploaded = "s3-uploaded.bin";

    public string Name => "s3";

    public int Order => 110;

    public string Description => "the large file through the S3 backend on the RGW named by FT_S3_* (proxied, redirected, direct GETs on RGW) beside the local disk; skipped without FT_S3_*";

    public async Task RunAsync(BenchContext context)
    {
        var file = context.Large;
        var download = $"download {BenchContext.Size(file.Size)}";
        var upload = $"upload {BenchContext.Size(file.Size)}";
        if (RgwStore.FromEnvironment() is not { } store)
        {
            foreach (var (label, server, protocol) in RowNames(download, upload))
            {
                context.Measurer.Skip(new CaseResult(Group, label, server, protocol, ".NET"), RgwStore.Missing);
            }

            return;
        }

        // One bucket per run, shared by both copies as replicas share one; the server creates it.
        var bucket = $"ft-bench-{Guid.NewGuid():N}"[..24];
        var proxied = await context.StartOursAsync("ours-s3", context.OursBuild, store.ServerEnvironment(bucket, redirect: false));
        context.S3Servers.Add(proxied);
        var redirected = await context.StartOursAsync("ours-s3-redirect", context.OursBuild, store.ServerEnvironment(bucket, redirect: true));
        context.S3Servers.Add(redirected);

        using var rest = new DotnetClient(http2: false);
        using var anonymous = new DotnetClient(http2: false, authenticate: false);
        var (status, seeded) = await rest.UploadAsync(context.Url(proxied, false, file), file.Path);
        Measurer.Expect((int)status is 200 or 201 && seeded == file.Sha256, $"seeding the bucket: PUT answered {(int)status}, sha256 {seeded}");

        using var localGrpc = context.NewGrpcClient(context.Ours);
        using var proxiedGrpc = context.NewGrpcClient(proxied);
        using var redirectedGrpc = context.NewGrpcClient(redirected);
        var name = BenchContext.GrpcName(file);

        foreach (var (label, server) in new[] { (Local, context.Ours), (Proxied, proxied), (Redirected, redirected) })
        {
            context.Plan(new CaseResult(Group, download, label, "HTTP/1.1", ".NET HttpClient"), server, s => async verify =>
            {
                // A redirected GET is followed to the store (HttpClient drops the Authorization header on the way).
                var (bytes, sha) = await rest.DownloadAsync(context.Url(s, false, file), verify);
                return Checked(file, bytes, sha, verify);
            });
        }

        // The URL is fetched once, in the warm-up: the measured runs are the store's GETs alone.
        Uri? presigned = null;
        context.Plan(new CaseResult(Group, download, Direct, "HTTP/1.1", ".NET HttpClient"), redirected, _ => async verify =>
        {
            presigned ??= await redirectedGrpc.GetDownloadUrlAsync(name);
            var (bytes, sha) = await anonymous.DownloadAsync(presigned, verify);
            return Checked(file, bytes, sha, verify);
        });

        foreach (var (label, server, client) in new[] { (Local, context.Ours, localGrpc), (Proxied, proxied, proxiedGrpc) })
        {
            context.Plan(new CaseResult(Group, download, label, GrpcCases.Grpc, GrpcClient.Label), server, _ => async verify =>
            {
                var (bytes, sha) = await client.DownloadAsync(name, verify);
                return Checked(file, bytes, sha, verify);
            });
        }

        context.Plan(new CaseResult(Group, download, Redirected, GrpcCases.Grpc, GrpcClient.Label + " + HttpClient"), redirected, _ => async verify =>
        {
            var url = await redirectedGrpc.GetDownloadUrlAsync(name);
            var (bytes, sha) = await anonymous.DownloadAsync(url, verify);
            return Checked(file, bytes, sha, verify);
        });

        foreach (var (label, server, client) in new[] { (Local, context.Ours, localGrpc), (Proxied, proxied, proxiedGrpc) })
        {
            context.Plan(new CaseResult(Group, upload, label, "HTTP/1.1", ".NET HttpClient PUT"), server, s => async verify =>
            {
                var (put, sha) = await rest.UploadAsync(s.FileUrl(false, $"{BenchContext.Folder}/{Uploaded}"), file.Path);
                Measurer.Expect((int)put is 200 or 201, $"PUT answered {(int)put}");
                Measurer.Expect(!verify || sha == file.Sha256, $"the reported sha256 {sha} differs from the source");
                return new Transfer(file.Size);
            });
            context.Plan(new CaseResult(Group, upload, label, GrpcCases.Grpc, GrpcClient.Label), server, _ => async verify =>
            {
                var sha = await client.UploadAsync($"{BenchContext.Folder}/{Uploaded}", file.Path, 32 * 1024);
                Measurer.Expect(!verify || sha == file.Sha256, $"the reported sha256 {sha} differs from the source");
                return new Transfer(file.Size);
            });
        }

        await context.Measurer.RunPlannedAsync();

        // The bucket stays (an RGW of the run's own); what the run stored in it goes.
        await rest.DeleteAsync(proxied.FileUrl(false, name));
        await rest.DeleteAsync(proxied.FileUrl(false, $"{BenchContext.Folder}/{Uploaded}"));
        File.Delete(context.Ours.PathOf($"{BenchContext.Folder}/{Uploaded}"));
    }

    private static Transfer Checked(TestFile file, long bytes, string? sha, bool verify)
    {
        Measurer.Expect(bytes == file.Size, $"received {bytes} of {file.Size} bytes");
        Measurer.Expect(!verify || sha == file.Sha256, "SHA-256 of the received bytes differs from the file's");
        return new Transfer(bytes);
    }

    private static IEnumerable<(string Label, string Server, string Protocol)> RowNames(string download, string upload) =>
    [
        (download, Local, "HTTP/1.1"), (download, Proxied, "HTTP/1.1"), (download, Redirected, "HTTP/1.1"), (download, Direct, "HTTP/1.1"),
        (download, Local, GrpcCases.Grpc), (download, Proxied, GrpcCases.Grpc), (download, Redirected, GrpcCases.Grpc),
        (upload, Local, "HTTP/1.1"), (upload, Local, GrpcCases.Grpc), (upload, Proxied, "HTTP/1.1"), (upload, Proxied, GrpcCases.Grpc),
    ];
}
