using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Storage.Quotas;

/// <summary>
/// Quotas through the protocols: every upload path refused with QUOTA_EXCEEDED (REST 507 with usage
/// and limit, gRPC RESOURCE_EXHAUSTED with ErrorInfo) before anything is visible; the usage readable
/// over REST and gRPC by who may read the folder; on S3, two replicas racing for the last room.
/// </summary>
public sealed class QuotaTests : IDisposable
{
    private readonly KestrelFactory _server = new();

    public QuotaTests()
    {
        Configure(_server);
    }

    public void Dispose() => _server.Dispose();

    [Fact]
    public async Task Every_Upload_Path_Is_Refused_When_The_Quota_Has_No_Room_And_Stores_Nothing()
    {
        _server.Storage.Write("q/existing.bin", new byte[900]);
        using var rest = Rest(_server);

        var put = await Problems.AssertAsync(await rest.PutAsync("/api/files/q/put.bin", new ByteArrayContent(new byte[200]), TestTimeout.Token), HttpStatusCode.InsufficientStorage);
        using var form = new MultipartFormDataContent { { new ByteArrayContent(new byte[200]), "file", "form.bin" } };
        await Problems.AssertAsync(await rest.PostAsync("/api/files?folder=q", form, TestTimeout.Token), HttpStatusCode.InsufficientStorage);
        using var tus = new HttpRequestMessage(HttpMethod.Post, "/api/uploads");
        tus.Headers.Add("Tus-Resumable", "1.0.0");
        tus.Headers.Add("Upload-Length", "200");
        tus.Headers.Add("Upload-Metadata", "filename " + Convert.ToBase64String(Encoding.UTF8.GetBytes("q/tus.bin")));
        await Problems.AssertAsync(await rest.SendAsync(tus, TestTimeout.Token), HttpStatusCode.InsufficientStorage);
        using var draft = new HttpRequestMessage(HttpMethod.Put, "/api/files/q/draft.bin") { Content = new ByteArrayContent(new byte[200]) };
        draft.Headers.Add("Upload-Draft-Interop-Version", "6");
        draft.Headers.Add("Upload-Complete", "?0");
        await Problems.AssertAsync(await rest.SendAsync(draft, TestTimeout.Token), HttpStatusCode.InsufficientStorage);

        Assert.Equal("QUOTA_EXCEEDED", put.GetProperty("reason").GetString());
        Assert.Equal("q/", put.GetProperty("path").GetString());
        Assert.Equal(900, put.GetProperty("usedBytes").GetInt64());
        Assert.Equal(1000, put.GetProperty("maxBytes").GetInt64());
        Assert.Equal(1, put.GetProperty("usedFiles").GetInt64());

        var grpc = GrpcClients.For(_server);
        var upload = grpc.UploadFile(cancellationToken: TestTimeout.Token);
        var refused = await Assert.ThrowsAsync<RpcException>(async () =>
        {
            await upload.RequestStream.WriteAsync(new UploadFileRequest { Metadata = new FileMetadata { FileName = "q/grpc.bin", Size = 200, Overwrite = true } }, TestTimeout.Token);
            await upload.RequestStream.WriteAsync(new UploadFileRequest { Chunk = ByteString.CopyFrom(new byte[200]) }, TestTimeout.Token);
            await upload.RequestStream.CompleteAsync();
            await upload;
        });
        var session = await Assert.ThrowsAsync<RpcException>(() => grpc.StartUploadAsync(new StartUploadRequest { FileName = "q/s.bin", Length = 200 }, cancellationToken: TestTimeout.Token).ResponseAsync);
        Assert.Equal(StatusCode.ResourceExhausted, refused.StatusCode);
        Assert.Equal(StatusCode.ResourceExhausted, session.StatusCode);
        var info = refused.GetRpcStatus()!.GetDetail<Google.Rpc.ErrorInfo>();
        Assert.Equal("QUOTA_EXCEEDED", info.Reason);
        Assert.Equal("1000", info.Metadata["max_bytes"]);
        Assert.Equal("900", info.Metadata["used_bytes"]);

        Assert.Equal(["q/existing.bin"], _server.Storage.VisibleFiles().Where(f => f.StartsWith("q/", StringComparison.Ordinal)));
        Assert.Equal(HttpStatusCode.Created, (await rest.PutAsync("/api/files/q/fits.bin", new ByteArrayContent(new byte[100]), TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await rest.PutAsync("/api/files/elsewhere.bin", new ByteArrayContent(new byte[5000]), TestTimeout.Token)).StatusCode);
    }

    [Fact]
    public async Task The_Usage_Is_Readable_On_Both_Protocols_By_Who_May_Read_The_Folder()
    {
        _server.With("Auth:ApiKeys:1:Key", "other-team-key-000000000000")
            .With("Auth:ApiKeys:1:Scopes:0", "read")
            .With("Auth:ApiKeys:1:Paths:0", "other/");
        using var rest = Rest(_server);
        await rest.PutAsync("/api/files/q/a.bin", new ByteArrayContent(new byte[123]), TestTimeout.Token);

        var usage = JsonDocument.Parse(await rest.GetStringAsync("/api/usage?path=q/", TestTimeout.Token)).RootElement;
        var grpc = await GrpcClients.For(_server).GetUsageAsync(new GetUsageRequest { Path = "q" }, cancellationToken: TestTimeout.Token);
        using var stranger = Rest(_server, "other-team-key-000000000000");

        Assert.Equal((123, 1, 1000), (usage.GetProperty("usedBytes").GetInt64(), usage.GetProperty("usedFiles").GetInt64(), usage.GetProperty("maxBytes").GetInt64()));
        Assert.Equal(5, usage.GetProperty("maxFiles").GetInt64());
        Assert.Equal(("q/", 123L, 1L, 1000L, 5L), (grpc.Path, grpc.UsedBytes, grpc.UsedFiles, grpc.MaxBytes, grpc.MaxFiles));
        await Problems.AssertAsync(await stranger.GetAsync("/api/usage?path=q/", TestTimeout.Token), HttpStatusCode.Forbidden);
        await Problems.AssertAsync(await rest.GetAsync("/api/usage?path=none/", TestTimeout.Token), HttpStatusCode.NotFound);
    }

    [Fact]
    public async Task On_S3_Two_Replicas_Racing_For_The_Last_Room_Store_Exactly_What_Fits()
    {
        var rgw = await CephRgw.GetAsync();
        var bucket = CephRgw.NewBucketName();
        using var a = Configure(new KestrelFactory().OnS3(rgw, bucket));
        using var b = Configure(new KestrelFactory().OnS3(rgw, bucket));
        try
        {
            using var restA = Rest(a);
            using var restB = Rest(b);

            // 10 uploads of 300 bytes through two replicas into 1000 bytes: exactly three fit.
            var answers = await Task.WhenAll(Enumerable.Range(0, 10).Select(i =>
                (i % 2 == 0 ? restA : restB).PutAsync($"/api/files/q/r{i}.bin", new ByteArrayContent(new byte[300]), TestTimeout.Token)));

            Assert.Equal(3, answers.Count(r => r.StatusCode == HttpStatusCode.Created));
            Assert.Equal(7, answers.Count(r => r.StatusCode == HttpStatusCode.InsufficientStorage));
            var listed = JsonDocument.Parse(await restB.GetStringAsync("/api/files?prefix=q/", TestTimeout.Token)).RootElement;
            Assert.Equal(3, listed.GetArrayLength());
            var usage = JsonDocument.Parse(await restA.GetStringAsync("/api/usage?path=q/", TestTimeout.Token)).RootElement;
            Assert.Equal((900, 3), (usage.GetProperty("usedBytes").GetInt64(), usage.GetProperty("usedFiles").GetInt64()));
        }
        finally
        {
            using var client = rgw.CreateClient();
            await S3Buckets.DeleteAsync(client, bucket);
        }
    }

    private static KestrelFactory Configure(KestrelFactory server)
    {
        server.With("Quotas:0:Path", "q/").With("Quotas:0:MaxBytes", "1000").With("Quotas:0:MaxFiles", "5").With("RateLimit:Enabled", "false");
        return server;
    }

    private static HttpClient Rest(KestrelFactory server, string key = FileTransferFactory.TestKey)
    {
        var client = KestrelFactory.ClientFor(server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", key);
        return client;
    }
}
