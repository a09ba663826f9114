using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>A real full disk (<see cref="SmallVolume"/>: 1 MiB in the root) under a gRPC upload.</summary>
public sealed class GrpcDiskFullTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly SmallVolume _volume;

    public GrpcDiskFullTests()
    {
        _volume = new SmallVolume(_server.Storage, "small-volume");
        _server.Storage.Write("small-volume/existing.bin", [1, 2, 3]);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(3_000_000)]
    public async Task Disk_Filling_Up_Is_Resource_Exhausted_And_Keeps_The_Previous_Version(long declaredSize)
    {
        var error = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.UploadAsync(
            GrpcClients.For(_server),
            new FileMetadata { FileName = "small-volume/existing.bin", Overwrite = true, Size = declaredSize },
            TestData.RandomBytes(3_000_000),
            64 * 1024,
            TestTimeout.Token));

        Assert.Equal(StatusCode.ResourceExhausted, error.StatusCode);
        Assert.Equal("STORAGE_FULL", GrpcAssert.Reason(error));
        GrpcAssert.IsClean(error, _server.Storage.RootPath);
        Assert.Equal(["existing.bin"], Directory.GetFiles(_volume.Path).Select(Path.GetFileName));
        Assert.Equal([1, 2, 3], await File.ReadAllBytesAsync(Path.Combine(_volume.Path, "existing.bin"), TestTimeout.Token));
    }

    public void Dispose()
    {
        _server.Dispose();
        _volume.Dispose();
    }
}
