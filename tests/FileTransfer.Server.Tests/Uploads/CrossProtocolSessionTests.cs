using System.Net;
using System.Security.Cryptography;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Uploads;

/// <summary>One session, three protocols: what tus, the draft or gRPC began, another of them finishes, with the SHA-256 over every byte.</summary>
public sealed class CrossProtocolSessionTests : IDisposable
{
    private readonly KestrelFactory _server = new();

    [Fact]
    public async Task Begun_Over_Tus_Finished_Over_Grpc()
    {
        var source = TestData.RandomBytes((2 * 1024 * 1024) + 333);
        using var http = Http();
        var location = await Tus.CreateAsync(http, "cross/tus-grpc.bin", source.Length);
        using var part = await Tus.AppendAsync(http, location, source, 0, 1_000_000);
        var grpc = GrpcClients.For(_server);
        var uploadId = location.Segments[^1];

        var status = await grpc.GetUploadStatusAsync(new GetUploadStatusRequest { UploadId = uploadId }, cancellationToken: TestTimeout.Token);
        var done = await GrpcSessions.WriteAsync(grpc, uploadId, source, (int)status.Offset, source.Length, finish: true);

        Assert.Equal(1_000_000, status.Offset);
        Assert.Equal(source.Length, status.Length);
        Assert.Equal("cross/tus-grpc.bin", status.FileName);
        Assert.Equal(SHA256.HashData(source), done.File.Sha256.ToByteArray());
        Assert.Equal(source, File.ReadAllBytes(_server.Storage.PathOf("cross/tus-grpc.bin")));
    }

    [Fact]
    public async Task Begun_Over_Grpc_Finished_Over_Tus()
    {
        var source = TestData.RandomBytes(700_000);
        var grpc = GrpcClients.For(_server);
        var started = await grpc.StartUploadAsync(new StartUploadRequest { FileName = "cross/grpc-tus.bin", Length = source.Length, Sha256 = ByteString.CopyFrom(SHA256.HashData(source)) }, cancellationToken: TestTimeout.Token);
        await GrpcSessions.WriteAsync(grpc, started.UploadId, source, 0, 300_000, finish: false);
        using var http = Http();
        var location = new Uri(http.BaseAddress!, "/api/uploads/" + started.UploadId);

        using var head = await http.SendAsync(Tus.Head(location), TestTimeout.Token);
        using var rest = await Tus.AppendAsync(http, location, source, (int)Tus.Offset(head), source.Length);

        Assert.Equal(300_000, Tus.Offset(head));
        Assert.Equal(HttpStatusCode.NoContent, rest.StatusCode);
        Assert.Equal($"sha-256=:{Convert.ToBase64String(SHA256.HashData(source))}:", rest.Headers.GetValues("Repr-Digest").Single());
        Assert.Equal(source, File.ReadAllBytes(_server.Storage.PathOf("cross/grpc-tus.bin")));
    }

    [Fact]
    public async Task Begun_Over_The_Draft_Continued_Over_Tus_Finished_Over_Grpc()
    {
        var source = TestData.RandomBytes(900_000);
        using var http = Http();
        using var created = await http.SendAsync(Draft.Create("cross/draft.bin", source[..200_000], complete: false), TestTimeout.Token);
        var location = new Uri(http.BaseAddress!, created.Headers.Location!);
        using var tus = await Tus.AppendAsync(http, location, source, 200_000, 500_000);
        Assert.Equal(HttpStatusCode.NoContent, tus.StatusCode);

        var done = await GrpcSessions.WriteAsync(GrpcClients.For(_server), location.Segments[^1], source, 500_000, source.Length, finish: true);

        Assert.True(done.Complete);
        Assert.Equal(SHA256.HashData(source), done.File.Sha256.ToByteArray());
        Assert.Equal(source, File.ReadAllBytes(_server.Storage.PathOf("cross/draft.bin")));
        using var head = await http.SendAsync(Draft.Head(location), TestTimeout.Token);
        Assert.Equal("?1", head.Headers.GetValues("Upload-Complete").Single());
    }

    public void Dispose() => _server.Dispose();

    private HttpClient Http() => KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
}
