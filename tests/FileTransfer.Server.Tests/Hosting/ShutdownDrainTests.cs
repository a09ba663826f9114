using System.Diagnostics;
using System.Net;
using System.Security.Cryptography;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Uploads;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>
/// The built server as its own process, stopped with a real SIGTERM while transfers run, on the local
/// disk and on S3 (the real RGW): it turns not ready at once (<c>/healthz/ready</c> 503,
/// <c>/healthz/live</c> 200), refuses new transfers with 503 + Retry-After / UNAVAILABLE, lets the
/// running REST and gRPC uploads finish, then exits 0; transfers still running after
/// <c>Shutdown:DrainSeconds</c> are cut, and their upload session keeps what arrived.
/// </summary>
public sealed class ShutdownDrainTests : IAsyncLifetime
{
    private readonly TempStorage _storage = new();
    private readonly string _bucket = CephRgw.NewBucketName();
    private CephRgw? _rgw;

    public static TheoryData<string> Backends => ["Local", "S3"];

    [Theory]
    [MemberData(nameof(Backends))]
    public async Task Sigterm_Turns_Unready_Refuses_New_Transfers_Lets_Running_Ones_Finish_And_Exits(string backend)
    {
        await using var server = await StartAsync(backend, drainSeconds: 30);
        using var rest = KestrelFactory.ClientFor(server.Http1, HttpVersion.Version11);
        var grpc = new FileService.FileServiceClient(GrpcClients.Channel(server.Http2));
        var restBytes = TestData.RandomBytes(3 * 1024 * 1024);
        var grpcBytes = TestData.RandomBytes(2 * 1024 * 1024);

        // Two uploads under way: a REST PUT paused half way, a gRPC UploadFile that sent its first chunk.
        var resume = new TaskCompletionSource<bool>();
        var content = new PausedContent(restBytes, restBytes.Length / 2, resume.Task);
        var put = rest.PutAsync("/api/files/drain/rest.bin", content, TestTimeout.Token);
        using var upload = grpc.UploadFile(cancellationToken: TestTimeout.Token);
        await upload.RequestStream.WriteAsync(new UploadFileRequest { Metadata = new FileMetadata { FileName = "drain/grpc.bin", Overwrite = true } });
        await upload.RequestStream.WriteAsync(new UploadFileRequest { Chunk = ByteString.CopyFrom(grpcBytes, 0, 1024 * 1024) });
        await content.Paused;
        await UntilAsync(async () => ActiveTransfers(await rest.GetStringAsync("/metrics", TestTimeout.Token)) == 2, "both uploads running in the server");

        await server.TerminateAsync();

        using var probes = KestrelFactory.ClientFor(server.Http1, HttpVersion.Version11);
        await UntilAsync(async () => (await probes.GetAsync("/healthz/ready", TestTimeout.Token)).StatusCode == HttpStatusCode.ServiceUnavailable, "not ready");
        Assert.Equal(HttpStatusCode.OK, (await probes.GetAsync("/healthz/live", TestTimeout.Token)).StatusCode);
        var health = await new global::Grpc.Health.V1.Health.HealthClient(GrpcClients.Channel(server.Http2, apiKey: null)).CheckAsync(new global::Grpc.Health.V1.HealthCheckRequest(), cancellationToken: TestTimeout.Token);
        Assert.Equal(global::Grpc.Health.V1.HealthCheckResponse.Types.ServingStatus.NotServing, health.Status);
        using (var refused = await probes.GetAsync("/api/files?prefix=drain/", TestTimeout.Token))
        {
            var problem = await Problems.AssertAsync(refused, HttpStatusCode.ServiceUnavailable);
            Assert.Equal("STORAGE_UNAVAILABLE", problem.GetProperty("reason").GetString());
            Assert.NotNull(refused.Headers.RetryAfter);
        }

        var error = await Assert.ThrowsAsync<RpcException>(async () => await grpc.ListFilesAsync(new ListFilesRequest(), cancellationToken: TestTimeout.Token));
        Assert.Equal(StatusCode.Unavailable, error.StatusCode);
        Assert.Equal("STORAGE_UNAVAILABLE", GrpcAssert.Reason(error));

        // The running ones finish, stored whole; then the process exits on its own, well before the drain's end.
        var watch = Stopwatch.StartNew();
        resume.SetResult(true);
        await upload.RequestStream.WriteAsync(new UploadFileRequest { Chunk = ByteString.CopyFrom(grpcBytes, 1024 * 1024, grpcBytes.Length - (1024 * 1024)) });
        await upload.RequestStream.CompleteAsync();
        var uploaded = await upload.ResponseAsync;
        using var stored = await put;
        Assert.Equal(HttpStatusCode.Created, stored.StatusCode);
        Assert.Equal(Convert.ToHexString(SHA256.HashData(grpcBytes)), Convert.ToHexString(uploaded.Metadata.Sha256.Span));
        Assert.Equal(0, await server.WaitForExitAsync(TimeSpan.FromSeconds(20)));
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(20), $"exited after {watch.Elapsed}");

        await using var again = await StartAsync(backend, drainSeconds: 30);
        using var check = KestrelFactory.ClientFor(again.Http1, HttpVersion.Version11);
        Assert.Equal(SHA256.HashData(restBytes), SHA256.HashData(await check.GetByteArrayAsync("/api/files/drain/rest.bin", TestTimeout.Token)));
    }

    [Theory]
    [MemberData(nameof(Backends))]
    public async Task A_Transfer_Still_Running_After_The_Drain_Is_Cut_And_Its_Session_Keeps_What_Arrived(string backend)
    {
        const int Sent = 1024 * 1024;
        Uri location;
        var source = TestData.RandomBytes(4 * 1024 * 1024);
        await using (var server = await StartAsync(backend, drainSeconds: 1))
        {
            using var client = KestrelFactory.ClientFor(server.Http1, HttpVersion.Version11);
            location = await Tus.CreateAsync(client, "drain/tus.bin", source.Length);
            var patch = Tus.Patch(location, 0, []);
            var resume = new TaskCompletionSource<bool>();
            var content = new PausedContent(source, Sent, resume.Task);
            patch.Content = content;
            patch.Content.Headers.ContentType = new("application/offset+octet-stream");
            var sent = client.SendAsync(patch, TestTimeout.Token);
            await content.Paused;

            // Past the first checkpoint (256 KiB here): the PATCH is running in the server.
            await UntilAsync(async () => Tus.Offset(await client.SendAsync(Tus.Head(location), TestTimeout.Token)) > 0, "the PATCH running in the server");

            await server.TerminateAsync();

            Assert.Equal(0, await server.WaitForExitAsync(TimeSpan.FromSeconds(20)));

            // The client finds its connection gone as soon as it sends more.
            resume.SetResult(true);
            await Assert.ThrowsAnyAsync<HttpRequestException>(() => sent);
            Assert.Contains("Cutting 1 transfers still running after 1 s", server.Output, StringComparison.Ordinal);
        }

        await using var again = await StartAsync(backend, drainSeconds: 1);
        using var resumed = KestrelFactory.ClientFor(again.Http1, HttpVersion.Version11);
        var here = new Uri(again.Http1, location.PathAndQuery);
        using var head = await resumed.SendAsync(Tus.Head(here), TestTimeout.Token);
        var offset = (int)Tus.Offset(head);
        Assert.Equal(Sent, offset);
        using var rest = await Tus.AppendAsync(resumed, here, source, offset, source.Length);
        Assert.Equal(HttpStatusCode.NoContent, rest.StatusCode);
        Assert.Equal(SHA256.HashData(source), SHA256.HashData(await resumed.GetByteArrayAsync("/api/files/drain/tus.bin", TestTimeout.Token)));
    }

    public async Task InitializeAsync() => _rgw = await CephRgw.GetAsync();

    public async Task DisposeAsync()
    {
        _storage.Dispose();
        using var s3 = _rgw!.CreateClient();
        await S3Buckets.DeleteAsync(s3, _bucket);
    }

    private async Task<ServerProcess> StartAsync(string backend, int drainSeconds)
    {
        var environment = new Dictionary<string, string>
        {
            ["Storage__RootPath"] = _storage.RootPath,
            ["Auth__ApiKeys__0__Key"] = FileTransferFactory.TestKey,
            ["Auth__ApiKeys__0__Scopes__0"] = "read",
            ["Auth__ApiKeys__0__Scopes__1"] = "write",
            ["Shutdown__DrainSeconds"] = drainSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["Uploads__CheckpointBytes"] = (256 * 1024).ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["Logging__LogLevel__Default"] = "Information",
        };
        if (backend == "S3")
        {
            environment["Storage__Backend"] = "S3";
            environment["Storage__S3__ServiceUrl"] = _rgw!.ServiceUrl.ToString();
            environment["Storage__S3__Bucket"] = _bucket;
            environment["Storage__S3__AccessKey"] = _rgw.AccessKey;
            environment["Storage__S3__SecretKey"] = _rgw.SecretKey;
            environment["Storage__MaxFileSizeBytes"] = (64 * 1024 * 1024).ToString(System.Globalization.CultureInfo.InvariantCulture);
            environment["Auth__SigningKey"] = S3Servers.SigningKey;
        }

        return await ServerProcess.StartAsync(environment);
    }

    // Transfers in flight by the transfer metrics (filetransfer_transfers_active, every series).
    private static double ActiveTransfers(string metrics) =>
        metrics.Split('\n')
            .Where(line => line.StartsWith("filetransfer_transfers_active{", StringComparison.Ordinal))
            .Sum(line => double.Parse(line[(line.LastIndexOf(' ') + 1)..], System.Globalization.CultureInfo.InvariantCulture));

    private static async Task UntilAsync(Func<Task<bool>> condition, string what)
    {
        var watch = Stopwatch.StartNew();
        while (!await condition())
        {
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(30), $"not within 30 s: {what}");
            await Task.Delay(50, TestTimeout.Token);
        }
    }
}
