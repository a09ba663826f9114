using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Uploads;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Storage.S3;

/// <summary>
/// Two server processes' worth of hosts (two Kestrel hosts, each with its own S3 client, leases and
/// caches) on one bucket: they act as one server. What one stores, the other lists, serves and deletes,
/// over both protocols; a resumable upload one began the other finishes; a link one signs opens on
/// the other; and two clients racing conditional writes of one name through different replicas
/// never both win.
/// </summary>
public sealed class S3ReplicaTests : IAsyncLifetime
{
    private const int Multipart = (9 * 1024 * 1024) + 77;

    private readonly string _bucket = CephRgw.NewBucketName();
    private KestrelFactory _a = null!;
    private KestrelFactory _b = null!;
    private CephRgw _rgw = null!;

    public async Task InitializeAsync()
    {
        _rgw = await CephRgw.GetAsync();
        _a = Replica();
        _b = Replica();
        _a.AddressOf(HttpProtocols.Http1);
        _b.AddressOf(HttpProtocols.Http1);
    }

    [Theory]
    [InlineData(1000)]
    [InlineData(Multipart)]
    public async Task A_File_Uploaded_Over_Rest_To_One_Is_Listed_Served_And_Deleted_Over_Grpc_By_The_Other(int size)
    {
        var source = TestData.RandomBytes(size);
        using var a = Rest(_a);
        var b = GrpcClients.For(_b);

        using var put = await a.PutAsync("/api/files/shared/rest.bin", new ByteArrayContent(source), TestTimeout.Token);
        var listed = await b.ListFilesAsync(new ListFilesRequest { Prefix = "shared/" }, cancellationToken: TestTimeout.Token);
        var download = await GrpcTransfers.DownloadAsync(b, "shared/rest.bin", TestTimeout.Token);
        await b.DeleteFileAsync(new DeleteFileRequest { FileName = "shared/rest.bin", IfMatch = put.Headers.ETag!.ToString() }, cancellationToken: TestTimeout.Token);
        using var gone = await a.GetAsync("/api/files/shared/rest.bin", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        Assert.Equal(["shared/rest.bin"], listed.Files.Select(f => f.FileName));
        Assert.Equal(put.Headers.ETag!.ToString(), download.Metadata.Etag);
        Assert.Equal(GrpcTransfers.Sha256Hex(source), GrpcTransfers.Sha256Hex(download.Bytes));
        Assert.Equal(GrpcTransfers.Sha256Hex(source), Convert.ToHexString(download.Metadata.Sha256.Span));
        Assert.Equal(HttpStatusCode.NotFound, gone.StatusCode);
    }

    [Fact]
    public async Task A_File_Uploaded_Over_Grpc_To_One_Is_Served_And_Deleted_Over_Rest_By_The_Other()
    {
        var source = TestData.RandomBytes(Multipart);
        var a = GrpcClients.For(_a);
        using var b = Rest(_b);

        var uploaded = await GrpcTransfers.UploadAsync(a, "shared/grpc.bin", source, 256 * 1024, TestTimeout.Token);
        using var listing = await b.GetAsync("/api/files?prefix=shared/", TestTimeout.Token);
        using var get = await b.GetAsync("/api/files/shared/grpc.bin", TestTimeout.Token);
        var body = await get.Content.ReadAsByteArrayAsync(TestTimeout.Token);
        using var delete = await b.DeleteAsync("/api/files/shared/grpc.bin", TestTimeout.Token);
        var gone = await Assert.ThrowsAsync<RpcException>(async () => await a.GetFileInfoAsync(new GetFileInfoRequest { FileName = "shared/grpc.bin" }, cancellationToken: TestTimeout.Token));

        Assert.Contains("shared/grpc.bin", JsonDocument.Parse(await listing.Content.ReadAsStringAsync(TestTimeout.Token)).RootElement.EnumerateArray().Select(f => f.GetProperty("name").GetString()));
        Assert.Equal(uploaded.Metadata.Etag, get.Headers.ETag!.ToString());
        Assert.Equal(GrpcTransfers.Sha256Hex(source), GrpcTransfers.Sha256Hex(body));
        Assert.Equal($"sha-256=:{Convert.ToBase64String(uploaded.Metadata.Sha256.ToByteArray())}:", get.Headers.GetValues("Repr-Digest").Single());
        Assert.Equal(HttpStatusCode.NoContent, delete.StatusCode);
        Assert.Equal(StatusCode.NotFound, gone.StatusCode);
    }

    [Fact]
    public async Task An_Upload_Begun_Over_Tus_On_One_Replica_Is_Finished_Over_Grpc_On_The_Other()
    {
        var source = TestData.RandomBytes(Multipart);
        using var a = Rest(_a);
        var b = GrpcClients.For(_b);

        // A part (8 MiB at this size limit) and a tail shorter than a part, both kept in the bucket.
        var location = await Tus.CreateAsync(a, "shared/resumed.bin", source.Length);
        using var part = await Tus.AppendAsync(a, location, source, 0, 8_500_000);
        var uploadId = location.Segments[^1];
        var status = await b.GetUploadStatusAsync(new GetUploadStatusRequest { UploadId = uploadId }, cancellationToken: TestTimeout.Token);
        var done = await GrpcSessions.WriteAsync(b, uploadId, source, (int)status.Offset, source.Length, finish: true);
        var body = await a.GetByteArrayAsync("/api/files/shared/resumed.bin", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.NoContent, part.StatusCode);
        Assert.Equal(8_500_000, status.Offset);
        Assert.True(done.Complete);
        Assert.Equal(GrpcTransfers.Sha256Hex(source), Convert.ToHexString(done.File.Sha256.Span));
        Assert.Equal(GrpcTransfers.Sha256Hex(source), GrpcTransfers.Sha256Hex(body));
        using var client = _rgw.CreateClient();
        Assert.Equal(0, await S3Buckets.UploadsInProgressAsync(client, _bucket));
    }

    [Fact]
    public async Task A_Link_Signed_By_One_Replica_Opens_On_The_Other()
    {
        var source = TestData.RandomBytes(500);
        using var a = Rest(_a);
        await a.PutAsync("/api/files/shared/linked.bin", new ByteArrayContent(source), TestTimeout.Token);
        var link = await Security.SignedLinkTests.IssueAsync(a, new { path = "shared/linked.bin", access = "read" });

        using var anonymous = new HttpClient { BaseAddress = _b.AddressOf(HttpProtocols.Http1) };
        var body = await anonymous.GetByteArrayAsync($"/api/files/shared/linked.bin?sig={link.Token}", TestTimeout.Token);

        Assert.Equal(source, body);
    }

    [Theory]
    [InlineData(1000)]
    [InlineData(Multipart)]
    public async Task Two_Clients_Replacing_One_Version_Through_Two_Replicas_Never_Both_Win(int size)
    {
        using var a = Rest(_a);
        using var b = Rest(_b);
        for (var round = 0; round < (size > 1_000_000 ? 3 : 10); round++)
        {
            var name = $"race/{size}-{round}.bin";
            using var first = await a.PutAsync($"/api/files/{name}", new ByteArrayContent(TestData.RandomBytes(100)), TestTimeout.Token);
            var held = first.Headers.ETag!;
            byte[][] sources = [TestData.RandomBytes(size), TestData.RandomBytes(size)];

            var answers = await Task.WhenAll(
                Task.Run(() => ConditionalPutAsync(a, name, sources[0], r => r.Headers.IfMatch.Add(held))),
                Task.Run(() => ConditionalPutAsync(b, name, sources[1], r => r.Headers.IfMatch.Add(held))));

            Assert.Single(answers, status => status == HttpStatusCode.OK);
            Assert.Single(answers, status => status == HttpStatusCode.PreconditionFailed);
            var winner = Array.IndexOf(answers, HttpStatusCode.OK);
            Assert.Equal(TempStorage.Sha256(sources[winner]), TempStorage.Sha256(await b.GetByteArrayAsync($"/api/files/{name}", TestTimeout.Token)));
        }
    }

    [Theory]
    [InlineData(1000)]
    [InlineData(Multipart)]
    public async Task Two_Clients_Creating_One_Name_Through_Two_Replicas_Only_One_Creates(int size)
    {
        using var a = Rest(_a);
        using var b = Rest(_b);
        for (var round = 0; round < (size > 1_000_000 ? 3 : 10); round++)
        {
            var name = $"create/{size}-{round}.bin";
            byte[][] sources = [TestData.RandomBytes(size), TestData.RandomBytes(size)];

            var answers = await Task.WhenAll(
                Task.Run(() => ConditionalPutAsync(a, name, sources[0], r => r.Headers.IfNoneMatch.Add(EntityTagHeaderValue.Any))),
                Task.Run(() => ConditionalPutAsync(b, name, sources[1], r => r.Headers.IfNoneMatch.Add(EntityTagHeaderValue.Any))));

            Assert.Single(answers, status => status == HttpStatusCode.Created);
            Assert.Single(answers, status => status == HttpStatusCode.PreconditionFailed);
            var winner = Array.IndexOf(answers, HttpStatusCode.Created);
            Assert.Equal(TempStorage.Sha256(sources[winner]), TempStorage.Sha256(await a.GetByteArrayAsync($"/api/files/{name}", TestTimeout.Token)));
        }
    }

    private static async Task<HttpStatusCode> ConditionalPutAsync(HttpClient client, string name, byte[] bytes, Action<HttpRequestMessage> condition)
    {
        using var request = new HttpRequestMessage(HttpMethod.Put, $"/api/files/{name}") { Content = new ByteArrayContent(bytes) };
        condition(request);
        using var response = await client.SendAsync(request, TestTimeout.Token);
        return response.StatusCode;
    }

    private KestrelFactory Replica() =>
        (KestrelFactory)new KestrelFactory()
            .OnS3(_rgw, _bucket)
            .With("Storage:MaxFileSizeBytes", (64 * 1024 * 1024).ToString(System.Globalization.CultureInfo.InvariantCulture))
            .With("RateLimit:Enabled", "false");

    private static HttpClient Rest(KestrelFactory replica) => KestrelFactory.ClientFor(replica.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);

    public async Task DisposeAsync()
    {
        _a?.Dispose();
        _b?.Dispose();
        using var client = _rgw.CreateClient();
        await S3Buckets.DeleteAsync(client, _bucket);
    }
}
