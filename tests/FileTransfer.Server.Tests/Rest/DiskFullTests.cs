using System.Net;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Rest;

/// <summary>A real full disk: a 1 MiB tmpfs mounted inside the storage root (<see cref="SmallVolume"/>).</summary>
public sealed class DiskFullTests : IDisposable
{
    private readonly FileTransferFactory _factory = new();
    private readonly SmallVolume _volume;

    public DiskFullTests()
    {
        _volume = new SmallVolume(_factory.Storage, "small-volume");
        _factory.Storage.Write("small-volume/existing.bin", [1, 2, 3]);
    }

    [Fact]
    public async Task Disk_Filling_Up_Mid_Stream_Is_507_And_Keeps_The_Previous_Version()
    {
        using var client = _factory.CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Put, "/api/files/small-volume/existing.bin")
        {
            Content = new StreamContent(new MemoryStream(TestData.RandomBytes(3_000_000))),
        };
        request.Headers.TransferEncodingChunked = true;

        using var response = await client.SendAsync(request, TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, HttpStatusCode.InsufficientStorage);
        Assert.DoesNotContain(_factory.Storage.RootPath, problem.ToString(), StringComparison.Ordinal);
        Assert.Equal(["existing.bin"], Directory.GetFiles(_volume.Path).Select(Path.GetFileName));
        Assert.Equal([1, 2, 3], await File.ReadAllBytesAsync(Path.Combine(_volume.Path, "existing.bin"), TestTimeout.Token));
    }

    public void Dispose()
    {
        _volume.Dispose();
        _factory.Dispose();
    }
}
