using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>
/// GetDownloadUrl on the local disk, where this server sends every byte itself: a clear refusal with
/// a stable reason, whether or not the file exists, and only for callers allowed to read. (With an
/// object store: Storage/S3/S3RedirectTests.)
/// </summary>
public sealed class GetDownloadUrlTests : IDisposable
{
    private const string WriteOnlyKey = "write-only-key-for-download-urls-0123";
    private readonly KestrelFactory _server = (KestrelFactory)new KestrelFactory()
        .With("Auth:ApiKeys:1:Key", WriteOnlyKey)
        .With("Auth:ApiKeys:1:Scopes:0", "write");

    [Theory]
    [InlineData("here.bin")]
    [InlineData("missing.bin")]
    public async Task On_The_Local_Disk_It_Is_Failed_Precondition_With_Reason_Direct_Download_Unavailable(string name)
    {
        _server.Storage.WriteRandom("here.bin", 100);

        var error = await Assert.ThrowsAsync<RpcException>(async () =>
            await GrpcClients.For(_server).GetDownloadUrlAsync(new GetDownloadUrlRequest { FileName = name }, cancellationToken: TestTimeout.Token));

        Assert.Equal(StatusCode.FailedPrecondition, error.StatusCode);
        Assert.Equal("DIRECT_DOWNLOAD_UNAVAILABLE", GrpcAssert.Reason(error));
    }

    [Fact]
    public async Task It_Needs_The_Read_Scope()
    {
        _server.Storage.WriteRandom("here.bin", 100);

        var error = await Assert.ThrowsAsync<RpcException>(async () =>
            await GrpcClients.For(_server, WriteOnlyKey).GetDownloadUrlAsync(new GetDownloadUrlRequest { FileName = "here.bin" }, cancellationToken: TestTimeout.Token));

        Assert.Equal(StatusCode.PermissionDenied, error.StatusCode);
    }

    public void Dispose() => _server.Dispose();
}
