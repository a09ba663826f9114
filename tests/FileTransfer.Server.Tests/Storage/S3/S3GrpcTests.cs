using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Storage.S3;

/// <summary>
/// gRPC end to end with <c>Storage:Backend=S3</c> on the real Ceph RGW, over real Kestrel: uploads,
/// downloads from an offset, descriptions with their digest, listings, conditional deletes, and
/// GetDownloadUrl refused where downloads are not redirected.
/// </summary>
public sealed class S3GrpcTests(S3KestrelServer fixture) : IClassFixture<S3KestrelServer>
{
    private const int Multipart = (9 * 1024 * 1024) + 4321;

    private readonly FileService.FileServiceClient _client = GrpcClients.For(fixture.Server);

    [Theory]
    [InlineData(0)]
    [InlineData(1000)]
    [InlineData(Multipart)]
    public async Task An_Upload_Downloads_Whole_And_From_An_Offset_With_Its_Digest(int size)
    {
        var source = TestData.RandomBytes(size);
        var name = $"grpc/{size}.bin";

        var uploaded = await GrpcTransfers.UploadAsync(_client, name, source, 64 * 1024, TestTimeout.Token);
        var whole = await GrpcTransfers.DownloadAsync(_client, name, TestTimeout.Token);
        var tail = await GrpcTransfers.DownloadAsync(_client, new DownloadFileRequest { FileName = name, Offset = size / 3, Limit = size / 3 }, TestTimeout.Token);
        var info = await _client.GetFileInfoAsync(new GetFileInfoRequest { FileName = name }, cancellationToken: TestTimeout.Token);

        Assert.True(uploaded.Created);
        Assert.Equal(GrpcTransfers.Sha256Hex(source), GrpcTransfers.Sha256Hex(whole.Bytes));
        Assert.Equal(GrpcTransfers.Sha256Hex(source.AsSpan(size / 3, size / 3).ToArray()), GrpcTransfers.Sha256Hex(tail.Bytes));
        Assert.Equal(uploaded.Metadata.Etag, whole.Metadata.Etag);
        Assert.Equal(GrpcTransfers.Sha256Hex(source), Convert.ToHexString(whole.Metadata.Sha256.Span));
        Assert.Equal(GrpcTransfers.Sha256Hex(source), Convert.ToHexString(info.Sha256.Span));
        Assert.Equal(size, info.Size);
    }

    [Fact]
    public async Task Overwrite_False_On_An_Existing_Name_Is_Already_Exists_And_The_File_Stays()
    {
        var source = TestData.RandomBytes(100);
        await GrpcTransfers.UploadAsync(_client, "grpc/exists.bin", source, 1024, TestTimeout.Token);

        var error = await Assert.ThrowsAsync<RpcException>(() =>
            GrpcTransfers.UploadAsync(_client, new FileMetadata { FileName = "grpc/exists.bin" }, TestData.RandomBytes(100), 1024, TestTimeout.Token));

        Assert.Equal(StatusCode.AlreadyExists, error.StatusCode);
        Assert.Equal(GrpcTransfers.Sha256Hex(source), GrpcTransfers.Sha256Hex((await GrpcTransfers.DownloadAsync(_client, "grpc/exists.bin", TestTimeout.Token)).Bytes));
    }

    [Fact]
    public async Task ListFiles_Pages_Through_A_Prefix_In_Order()
    {
        string[] names = ["grpc-list/c", "grpc-list/a", "grpc-list/b/1", "grpc-list/b-1"];
        foreach (var name in names)
        {
            await GrpcTransfers.UploadAsync(_client, name, [1, 2], 1024, TestTimeout.Token);
        }

        var listed = new List<string>();
        var request = new ListFilesRequest { Prefix = "grpc-list/", PageSize = 1 };
        do
        {
            var page = await _client.ListFilesAsync(request, cancellationToken: TestTimeout.Token);
            listed.AddRange(page.Files.Select(f => f.FileName));
            request.PageToken = page.NextPageToken;
        }
        while (request.PageToken.Length > 0);

        Assert.Equal(["grpc-list/a", "grpc-list/b-1", "grpc-list/b/1", "grpc-list/c"], listed);
    }

    [Fact]
    public async Task DeleteFile_With_A_Stale_If_Match_Keeps_The_File_And_With_Its_ETag_Removes_It()
    {
        var uploaded = await GrpcTransfers.UploadAsync(_client, "grpc/delete.bin", [1, 2, 3], 1024, TestTimeout.Token);

        var stale = await Assert.ThrowsAsync<RpcException>(async () =>
            await _client.DeleteFileAsync(new DeleteFileRequest { FileName = "grpc/delete.bin", IfMatch = "\"0123\"" }, cancellationToken: TestTimeout.Token));
        await _client.DeleteFileAsync(new DeleteFileRequest { FileName = "grpc/delete.bin", IfMatch = uploaded.Metadata.Etag }, cancellationToken: TestTimeout.Token);
        var gone = await Assert.ThrowsAsync<RpcException>(async () =>
            await _client.GetFileInfoAsync(new GetFileInfoRequest { FileName = "grpc/delete.bin" }, cancellationToken: TestTimeout.Token));

        Assert.Equal(StatusCode.FailedPrecondition, stale.StatusCode);
        Assert.Equal("ETAG_MISMATCH", GrpcAssert.Reason(stale));
        Assert.Equal(StatusCode.NotFound, gone.StatusCode);
    }

    [Fact]
    public async Task An_Upload_Whose_Digest_Does_Not_Match_Stores_Nothing_And_Leaves_No_Multipart_Upload()
    {
        var error = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.UploadAsync(
            _client,
            new FileMetadata { FileName = "grpc/bad-digest.bin", Sha256 = ByteString.CopyFrom(new byte[32]) },
            TestData.RandomBytes(Multipart),
            64 * 1024,
            TestTimeout.Token));

        Assert.Equal(StatusCode.DataLoss, error.StatusCode);
        Assert.Equal(0, await S3Buckets.UploadsInProgressAsync(fixture.Client, fixture.Bucket));
        Assert.DoesNotContain("grpc/bad-digest.bin", await S3Buckets.KeysAsync(fixture.Client, fixture.Bucket, "grpc/"));
    }

    [Fact]
    public async Task An_Upload_Declared_Past_The_Size_Limit_Is_Refused_And_The_Previous_Version_Stays()
    {
        var kept = await GrpcTransfers.UploadAsync(_client, "grpc/too-big.bin", TestData.RandomBytes(100), 1024, TestTimeout.Token);

        // The fixture's limit is 64 MiB: one byte more is refused before a byte goes to the store.
        var error = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.UploadAsync(
            _client,
            new FileMetadata { FileName = "grpc/too-big.bin", Size = (64 * 1024 * 1024) + 1, Overwrite = true },
            TestData.RandomBytes(1000),
            1024,
            TestTimeout.Token));
        var info = await _client.GetFileInfoAsync(new GetFileInfoRequest { FileName = "grpc/too-big.bin" }, cancellationToken: TestTimeout.Token);

        Assert.Equal(StatusCode.ResourceExhausted, error.StatusCode);
        Assert.Equal("FILE_TOO_LARGE", GrpcAssert.Reason(error));
        Assert.Equal(kept.Metadata.Etag, info.Etag);
        Assert.Equal(0, await S3Buckets.UploadsInProgressAsync(fixture.Client, fixture.Bucket));
    }

    [Fact]
    public async Task An_Upload_The_Client_Abandons_After_A_Part_Went_To_The_Store_Leaves_The_Previous_Version_And_No_Multipart_Upload()
    {
        var kept = await GrpcTransfers.UploadAsync(_client, "grpc/abandoned.bin", TestData.RandomBytes(100), 1024, TestTimeout.Token);
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(TestTimeout.Token);
        var call = _client.UploadFile(cancellationToken: cancel.Token);
        await call.RequestStream.WriteAsync(new UploadFileRequest { Metadata = new FileMetadata { FileName = "grpc/abandoned.bin", Overwrite = true } }, TestTimeout.Token);
        var chunk = TestData.RandomBytes(64 * 1024);

        // More than the smallest part (8 MiB here): the server has started a multipart upload.
        for (var sent = 0; sent < Multipart; sent += chunk.Length)
        {
            await call.RequestStream.WriteAsync(new UploadFileRequest { Chunk = UnsafeByteOperations.UnsafeWrap(chunk) }, TestTimeout.Token);
        }

        await WaitForAsync(async () => await S3Buckets.UploadsInProgressAsync(fixture.Client, fixture.Bucket) > 0);
        await cancel.CancelAsync();
        call.Dispose();

        // The server notices the reset and aborts its multipart upload; nothing of it becomes visible.
        await WaitForAsync(async () => await S3Buckets.UploadsInProgressAsync(fixture.Client, fixture.Bucket) == 0);
        var info = await _client.GetFileInfoAsync(new GetFileInfoRequest { FileName = "grpc/abandoned.bin" }, cancellationToken: TestTimeout.Token);
        Assert.Equal(kept.Metadata.Etag, info.Etag);
        Assert.Equal(100, info.Size);
    }

    private static async Task WaitForAsync(Func<Task<bool>> condition)
    {
        var deadline = DateTime.UtcNow.AddSeconds(20);
        while (!await condition())
        {
            Assert.True(DateTime.UtcNow < deadline, "the condition did not hold within 20 s");
            await Task.Delay(100, TestTimeout.Token);
        }
    }

    [Fact]
    public async Task GetDownloadUrl_Is_Refused_With_A_Stable_Reason_When_Downloads_Are_Not_Redirected()
    {
        await GrpcTransfers.UploadAsync(_client, "grpc/no-url.bin", [1], 1024, TestTimeout.Token);

        var error = await Assert.ThrowsAsync<RpcException>(async () =>
            await _client.GetDownloadUrlAsync(new GetDownloadUrlRequest { FileName = "grpc/no-url.bin" }, cancellationToken: TestTimeout.Token));

        Assert.Equal(StatusCode.FailedPrecondition, error.StatusCode);
        Assert.Equal("DIRECT_DOWNLOAD_UNAVAILABLE", GrpcAssert.Reason(error));
    }
}
