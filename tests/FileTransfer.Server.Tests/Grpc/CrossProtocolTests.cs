using System.Net;
using System.Net.Http.Headers;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>One storage core behind both protocols: what one stores, the other serves with the same bytes, ETag and digest.</summary>
public sealed class CrossProtocolTests : IDisposable
{
    private readonly KestrelFactory _server = new();

    [Theory]
    [InlineData(0)]
    [InlineData(32 * 1024 + 1)]
    [InlineData((3 * 1024 * 1024) + 12345)]
    public async Task Uploaded_Over_Grpc_Downloads_Over_Rest_With_Equal_Bytes_ETag_And_Digest(int size)
    {
        var source = TestData.RandomBytes(size);
        using var http = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http2), HttpVersion.Version20);

        var uploaded = (await GrpcTransfers.UploadAsync(GrpcClients.For(_server), "cross/g.bin", source, 64 * 1024, TestTimeout.Token)).Metadata;
        using var response = await http.GetAsync("/api/files/cross/g.bin", TestTimeout.Token);

        Assert.Equal(source, await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
        Assert.Equal(uploaded.Etag, response.Headers.ETag!.ToString());
        Assert.Equal($"sha-256=:{Convert.ToBase64String(uploaded.Sha256.ToByteArray())}:", response.Headers.GetValues("Repr-Digest").Single());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(32 * 1024 + 1)]
    [InlineData((3 * 1024 * 1024) + 12345)]
    public async Task Uploaded_Over_Rest_Downloads_Over_Grpc_With_Equal_Bytes_ETag_And_Digest(int size)
    {
        var source = TestData.RandomBytes(size);
        using var http = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);

        using var put = await http.PutAsync("/api/files/cross/r.bin", new ByteArrayContent(source), TestTimeout.Token);
        var download = await GrpcTransfers.DownloadAsync(GrpcClients.For(_server), "cross/r.bin", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        Assert.Equal(source, download.Bytes);
        Assert.Equal(put.Headers.ETag!.ToString(), download.Metadata.Etag);
        Assert.Equal(put.Headers.GetValues("Repr-Digest").Single(), $"sha-256=:{Convert.ToBase64String(download.Metadata.Sha256.ToByteArray())}:");
    }

    [Fact]
    public async Task A_Grpc_If_Match_Takes_The_Rest_ETag_And_Rest_If_Match_Takes_The_Grpc_One()
    {
        _server.Storage.WriteRandom("cross/etag.bin", 100);
        using var http = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        var client = GrpcClients.For(_server);
        using var head = await http.SendAsync(new HttpRequestMessage(HttpMethod.Head, "/api/files/cross/etag.bin"), TestTimeout.Token);

        var download = await GrpcTransfers.DownloadAsync(client, new FileTransfer.Protos.V1.DownloadFileRequest { FileName = "cross/etag.bin", IfMatch = head.Headers.ETag!.ToString() }, TestTimeout.Token);
        using var delete = new HttpRequestMessage(HttpMethod.Delete, "/api/files/cross/etag.bin");
        delete.Headers.IfMatch.Add(EntityTagHeaderValue.Parse(download.Metadata.Etag));
        using var deleted = await http.SendAsync(delete, TestTimeout.Token);

        Assert.Equal(100, download.Bytes.Length);
        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
    }

    public void Dispose() => _server.Dispose();
}
