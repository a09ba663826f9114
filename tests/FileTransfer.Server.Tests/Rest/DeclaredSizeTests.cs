using System.Net;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Rest;

/// <summary>
/// A declared size is checked against the free space, but reserves none of it: an idle upload that
/// announces most of a small volume cannot make every other upload fail for as long as it stays open.
/// </summary>
public sealed class DeclaredSizeTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly SmallVolume _volume;

    public DeclaredSizeTests() => _volume = new SmallVolume(_server.Storage, "small", "4m");

    [Fact]
    public async Task An_Idle_Upload_Declaring_Most_Of_The_Volume_Does_Not_Deny_Space_To_Others()
    {
        var grpc = GrpcClients.For(_server);
        using var idle = grpc.UploadFile(cancellationToken: TestTimeout.Token);
        await idle.RequestStream.WriteAsync(new UploadFileRequest { Metadata = new FileMetadata { FileName = "small/idle.bin", Size = 3_500_000 } }, TestTimeout.Token);
        await idle.RequestStream.WriteAsync(new UploadFileRequest { Chunk = ByteString.CopyFrom(new byte[100]) }, TestTimeout.Token);
        await WaitUntilAsync(() => _server.Storage.TempFiles().Count == 1);
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        var other = TestData.RandomBytes(1_000_000);

        using var response = await client.PutAsync("/api/files/small/other.bin", new ByteArrayContent(other), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        Assert.Equal(other, await File.ReadAllBytesAsync(_server.Storage.PathOf("small/other.bin"), TestTimeout.Token));
    }

    [Fact]
    public async Task A_Declared_Size_Over_The_Free_Space_Is_Refused_Before_Any_Byte()
    {
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);

        using var response = await client.PutAsync("/api/files/small/huge.bin", new ByteArrayContent(new byte[5_000_000]), TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, HttpStatusCode.InsufficientStorage);
        Assert.Equal("STORAGE_FULL", problem.GetProperty("reason").GetString());
        Assert.Empty(Directory.GetFiles(_volume.Path));
    }

    private static async Task WaitUntilAsync(Func<bool> condition)
    {
        for (var i = 0; i < 100 && !condition(); i++)
        {
            await Task.Delay(100, TestTimeout.Token);
        }

        Assert.True(condition());
    }

    public void Dispose()
    {
        _server.Dispose();
        _volume.Dispose();
    }
}
