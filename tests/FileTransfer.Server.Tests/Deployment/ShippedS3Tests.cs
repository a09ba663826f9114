using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text.Json;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Deployment;

/// <summary>
/// The shipped server (the Release dll and the Native AOT executable, <see cref="NativeServer"/>) with
/// <c>Storage:Backend=S3</c> on a fresh bucket of the real Ceph RGW, configured through the environment
/// as the compose profile does: the server creates the bucket, keeps every byte over REST (a multipart
/// upload) and gRPC, lists and deletes, and logs no failure, a background one (events, sweeps) included.
/// </summary>
public sealed class ShippedS3Tests : IAsyncLifetime
{
    // Two parts of at least 8 MiB under a 64 MiB size limit (S3Servers' fixtures use the same).
    private const int Multipart = (9 * 1024 * 1024) + 99;
    private const int MaxFileSize = 64 * 1024 * 1024;

    private readonly string _bucket = CephRgw.NewBucketName();
    private CephRgw _rgw = null!;


    public async Task InitializeAsync() => _rgw = await CephRgw.GetAsync();

    [Theory]
    [MemberData(nameof(ShippedBuilds.Both), MemberType = typeof(ShippedBuilds))]
    public async Task Rest_And_Grpc_Keep_Every_Byte_List_And_Delete_On_A_Fresh_Bucket(bool native)
    {
        await using var server = await StartAsync(native);
        using var rest = Client(server.Http1);
        using var channel = GrpcClients.Channel(server.Http2);
        var grpc = new FileService.FileServiceClient(channel);
        var viaRest = RandomNumberGenerator.GetBytes(Multipart);
        var viaGrpc = RandomNumberGenerator.GetBytes((3 << 15) + 7);

        using var put = await rest.PutAsync("/api/files/s3/rest.bin", new ByteArrayContent(viaRest), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        Assert.Equal(GrpcTransfers.Sha256Hex(viaRest), (await JsonAsync(put)).GetProperty("sha256").GetString(), StringComparer.OrdinalIgnoreCase);
        var uploaded = await GrpcTransfers.UploadAsync(grpc, "s3/grpc.bin", viaGrpc, 32 * 1024, TestTimeout.Token);
        Assert.True(uploaded.Created);

        Assert.Equal(SHA256.HashData(viaRest), SHA256.HashData(await rest.GetByteArrayAsync("/api/files/s3/rest.bin", TestTimeout.Token)));
        Assert.Equal(SHA256.HashData(viaGrpc), SHA256.HashData(await rest.GetByteArrayAsync("/api/files/s3/grpc.bin", TestTimeout.Token)));
        var download = await GrpcTransfers.DownloadAsync(grpc, "s3/rest.bin", TestTimeout.Token);
        Assert.Equal(SHA256.HashData(viaRest), SHA256.HashData(download.Bytes));
        Assert.Equal(SHA256.HashData(viaRest), download.Metadata.Sha256.ToByteArray());

        using var listed = await rest.GetAsync("/api/files?prefix=s3/", TestTimeout.Token);
        Assert.Equal(["s3/grpc.bin", "s3/rest.bin"], (await JsonAsync(listed)).EnumerateArray().Select(f => f.GetProperty("name").GetString()));
        var page = await grpc.ListFilesAsync(new ListFilesRequest { Prefix = "s3/" }, cancellationToken: TestTimeout.Token);
        Assert.Equal([viaGrpc.Length, viaRest.Length], page.Files.Select(f => f.Size));
        using (var store = _rgw.CreateClient())
        {
            var keys = await S3Buckets.KeysAsync(store, _bucket, "s3/");
            Assert.Equal(["s3/grpc.bin", "s3/rest.bin"], keys.Order(StringComparer.Ordinal));
        }

        using var deleted = await rest.DeleteAsync("/api/files/s3/rest.bin", TestTimeout.Token);
        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        await grpc.DeleteFileAsync(new DeleteFileRequest { FileName = "s3/grpc.bin" }, cancellationToken: TestTimeout.Token);

        using var missing = await rest.GetAsync("/api/files/s3/rest.bin", TestTimeout.Token);
        Assert.Equal("FILE_NOT_FOUND", (await Problems.AssertAsync(missing, HttpStatusCode.NotFound)).GetProperty("reason").GetString());
        Assert.Empty((await grpc.ListFilesAsync(new ListFilesRequest { Prefix = "s3/" }, cancellationToken: TestTimeout.Token)).Files);
        using (var store = _rgw.CreateClient())
        {
            Assert.Empty(await S3Buckets.KeysAsync(store, _bucket, "s3/"));
        }

        Assert.DoesNotContain(server.Output.Split('\n'), line => line.StartsWith("fail:", StringComparison.Ordinal) || line.StartsWith("crit:", StringComparison.Ordinal));
    }

    public async Task DisposeAsync()
    {
        if (_rgw is null)
        {
            return;
        }

        using var store = _rgw.CreateClient();
        await S3Buckets.DeleteAsync(store, _bucket);
    }

    private async Task<ServerProcess> StartAsync(bool native) => await ServerProcess.StartAsync(
        new Dictionary<string, string>
        {
            ["ASPNETCORE_ENVIRONMENT"] = "Production",
            ["Storage__Backend"] = "S3",
            ["Storage__S3__ServiceUrl"] = _rgw.ServiceUrl.ToString(),
            ["Storage__S3__Bucket"] = _bucket,
            ["Storage__S3__AccessKey"] = _rgw.AccessKey,
            ["Storage__S3__SecretKey"] = _rgw.SecretKey,
            ["Storage__MaxFileSizeBytes"] = MaxFileSize.ToString(CultureInfo.InvariantCulture),
            ["Auth__SigningKey"] = S3Servers.SigningKey,
            ["Auth__ApiKeys__0__Key"] = FileTransferFactory.TestKey,
            ["Auth__ApiKeys__0__Scopes__0"] = "read",
            ["Auth__ApiKeys__0__Scopes__1"] = "write",
            ["Auth__ApiKeys__0__Scopes__2"] = "delete",
        },
        new ServerProcessOptions { Executable = native ? await NativeServer.PathAsync() : null });

    private static HttpClient Client(Uri address) => new()
    {
        BaseAddress = address,
        DefaultRequestHeaders = { Authorization = new AuthenticationHeaderValue("Bearer", FileTransferFactory.TestKey) },
    };

    private static async Task<JsonElement> JsonAsync(HttpResponseMessage response)
    {
        using var document = JsonDocument.Parse(await response.Content.ReadAsStringAsync(TestTimeout.Token));
        return document.RootElement.Clone();
    }
}
