using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Rest;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>A real full disk (1 MiB tmpfs in the root, as <see cref="DiskFullTests"/>) under a gRPC upload.</summary>
public sealed class GrpcDiskFullTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly string _mount;

    public GrpcDiskFullTests()
    {
        _mount = _server.Storage.PathOf("small-volume");
        Directory.CreateDirectory(_mount);
        DiskFullTests.Run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", _mount);
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
        Assert.Equal(["existing.bin"], Directory.GetFiles(_mount).Select(Path.GetFileName));
        Assert.Equal([1, 2, 3], await File.ReadAllBytesAsync(Path.Combine(_mount, "existing.bin"), TestTimeout.Token));
    }

    public void Dispose()
    {
        _server.Dispose();
        DiskFullTests.Run("umount", _mount);
    }
}
