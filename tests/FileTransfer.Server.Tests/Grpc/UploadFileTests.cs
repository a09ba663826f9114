using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>UploadFile over real Kestrel: the bytes stored, and every failure leaving nothing but the previous version.</summary>
public sealed class UploadFileTests : IDisposable
{
    private const int Chunk = 32 * 1024;
    private const int MaxChunk = 4 * 1024 * 1024;
    private readonly KestrelFactory _server = new();

    public static TheoryData<int, int> SizesAndChunks()
    {
        var data = new TheoryData<int, int>();
        foreach (var size in new[] { 0, 1, Chunk - 1, Chunk, Chunk + 1, (3 * 1024 * 1024) + 12345 })
        {
            foreach (var chunk in new[] { 1, Chunk, MaxChunk })
            {
                data.Add(size, chunk);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(SizesAndChunks))]
    public async Task Stores_The_Bytes_And_Answers_With_The_Server_Digest_And_New_ETag(int size, int chunkSize)
    {
        var source = TestData.RandomBytes(size);
        var client = GrpcClients.For(_server);
        // 3 MiB in 1-byte chunks is 3.2 million messages: seconds on a quiet machine, minutes on a busy one.
        using var timeout = new CancellationTokenSource(chunkSize == 1 ? TimeSpan.FromMinutes(10) : TimeSpan.FromMinutes(2));

        var response = await GrpcTransfers.UploadAsync(client, $"up/{size}-{chunkSize}.bin", source, chunkSize, timeout.Token);

        var stored = await File.ReadAllBytesAsync(_server.Storage.PathOf($"up/{size}-{chunkSize}.bin"), TestTimeout.Token);
        Assert.Equal(GrpcTransfers.Sha256Hex(source), GrpcTransfers.Sha256Hex(stored));
        Assert.Equal(GrpcTransfers.Sha256Hex(source), Convert.ToHexString(response.Metadata.Sha256.ToByteArray()));
        Assert.Equal(size, response.Metadata.Size);
        var info = await client.GetFileInfoAsync(new GetFileInfoRequest { FileName = $"up/{size}-{chunkSize}.bin" }, cancellationToken: TestTimeout.Token);
        Assert.Equal(info.Etag, response.Metadata.Etag);
        Assert.Empty(_server.Storage.TempFiles());
    }

    [Fact]
    public async Task A_Chunk_Of_Exactly_4_MiB_Is_Accepted_And_One_Byte_More_Is_Refused_With_Nothing_Written()
    {
        var client = GrpcClients.For(_server);
        var exact = TestData.RandomBytes(MaxChunk);

        await GrpcTransfers.UploadAsync(client, "limits/exact.bin", exact, MaxChunk, TestTimeout.Token);
        var error = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.UploadAsync(client, "limits/over.bin", TestData.RandomBytes(MaxChunk + 1), MaxChunk + 1, TestTimeout.Token));

        Assert.Equal(exact, await File.ReadAllBytesAsync(_server.Storage.PathOf("limits/exact.bin"), TestTimeout.Token));
        Assert.Equal(StatusCode.ResourceExhausted, error.StatusCode);
        Assert.Equal(["limits/exact.bin"], _server.Storage.VisibleFiles());
        Assert.Empty(_server.Storage.TempFiles());
    }

    [Fact]
    public async Task Existing_Name_Without_Overwrite_Is_Already_Exists_And_The_Old_File_Stays()
    {
        var old = _server.Storage.WriteRandom("keep.bin", 5000);

        var error = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.UploadAsync(GrpcClients.For(_server), new FileMetadata { FileName = "keep.bin" }, TestData.RandomBytes(100), Chunk, TestTimeout.Token));

        Assert.Equal(StatusCode.AlreadyExists, error.StatusCode);
        Assert.Equal("FILE_EXISTS", GrpcAssert.Reason(error));
        AssertOnly("keep.bin", old);
    }

    [Fact]
    public async Task Overwrite_Replaces_An_Existing_File_And_Says_So()
    {
        _server.Storage.WriteRandom("replace.bin", 5000);
        var replacement = TestData.RandomBytes(123);

        var response = await GrpcTransfers.UploadAsync(GrpcClients.For(_server), new FileMetadata { FileName = "replace.bin", Overwrite = true }, replacement, Chunk, TestTimeout.Token);

        Assert.False(response.Created);
        AssertOnly("replace.bin", replacement);
    }

    [Fact]
    public async Task A_New_Name_Is_Created_And_Says_So()
    {
        var response = await GrpcTransfers.UploadAsync(GrpcClients.For(_server), new FileMetadata { FileName = "new.bin" }, TestData.RandomBytes(10), Chunk, TestTimeout.Token);

        Assert.True(response.Created);
    }

    [Fact]
    public async Task If_Match_Replaces_Only_The_Version_The_Client_Holds()
    {
        var client = GrpcClients.For(_server);
        var first = await GrpcTransfers.UploadAsync(client, new FileMetadata { FileName = "held.bin" }, TestData.RandomBytes(1000), Chunk, TestTimeout.Token);
        var second = TestData.RandomBytes(2000);

        // The ETag the client holds: replaced (no overwrite flag needed), and the response says so.
        var replaced = await GrpcTransfers.UploadAsync(client, new FileMetadata { FileName = "held.bin", IfMatch = first.Metadata.Etag }, second, Chunk, TestTimeout.Token);
        // The same, now stale, ETag again: refused, and the second version stays.
        var stale = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.UploadAsync(client, new FileMetadata { FileName = "held.bin", IfMatch = first.Metadata.Etag, Overwrite = true }, TestData.RandomBytes(3000), Chunk, TestTimeout.Token));
        // A name that does not exist matches no ETag, not even "*".
        var missing = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.UploadAsync(client, new FileMetadata { FileName = "absent.bin", IfMatch = "*" }, TestData.RandomBytes(10), Chunk, TestTimeout.Token));

        Assert.False(replaced.Created);
        Assert.NotEqual(first.Metadata.Etag, replaced.Metadata.Etag);
        Assert.Equal(StatusCode.FailedPrecondition, stale.StatusCode);
        Assert.Equal("ETAG_MISMATCH", GrpcAssert.Reason(stale));
        Assert.Equal(StatusCode.FailedPrecondition, missing.StatusCode);
        AssertOnly("held.bin", second);
    }

    [Fact]
    public async Task A_Declared_Sha256_Is_Verified_Before_Commit()
    {
        var old = _server.Storage.WriteRandom("digest.bin", 10);
        var bytes = TestData.RandomBytes(100_000);
        var client = GrpcClients.For(_server);
        var wrong = System.Security.Cryptography.SHA256.HashData(TestData.RandomBytes(1));

        var error = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.UploadAsync(client, new FileMetadata { FileName = "digest.bin", Overwrite = true, Sha256 = ByteString.CopyFrom(wrong) }, bytes, Chunk, TestTimeout.Token));
        AssertOnly("digest.bin", old);
        await GrpcTransfers.UploadAsync(client, new FileMetadata { FileName = "digest.bin", Overwrite = true, Sha256 = ByteString.CopyFrom(System.Security.Cryptography.SHA256.HashData(bytes)) }, bytes, Chunk, TestTimeout.Token);

        Assert.Equal(StatusCode.DataLoss, error.StatusCode);
        Assert.Equal("DIGEST_MISMATCH", GrpcAssert.Reason(error));
        AssertOnly("digest.bin", bytes);
    }

    [Theory]
    [InlineData(99_999)]
    [InlineData(100_001)]
    public async Task A_Declared_Size_Other_Than_The_Bytes_Sent_Is_Data_Loss(long declared)
    {
        var old = _server.Storage.WriteRandom("size.bin", 10);

        var error = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.UploadAsync(GrpcClients.For(_server), new FileMetadata { FileName = "size.bin", Overwrite = true, Size = declared }, TestData.RandomBytes(100_000), Chunk, TestTimeout.Token));

        Assert.Equal(StatusCode.DataLoss, error.StatusCode);
        Assert.Equal("SIZE_MISMATCH", GrpcAssert.Reason(error));
        AssertOnly("size.bin", old);
    }

    [Fact]
    public async Task A_Chunk_Before_The_Metadata_Is_Invalid_Argument()
    {
        using var call = GrpcClients.For(_server).UploadFile(cancellationToken: TestTimeout.Token);
        await call.RequestStream.WriteAsync(new UploadFileRequest { Chunk = ByteString.CopyFromUtf8("hello") }, TestTimeout.Token);
        await call.RequestStream.CompleteAsync();

        var error = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);

        Assert.Equal(StatusCode.InvalidArgument, error.StatusCode);
        Assert.Empty(_server.Storage.Files());
    }

    [Fact]
    public async Task A_Second_Metadata_Message_Is_Invalid_Argument_And_Stores_Nothing()
    {
        var old = _server.Storage.WriteRandom("twice.bin", 10);
        using var call = GrpcClients.For(_server).UploadFile(cancellationToken: TestTimeout.Token);
        await call.RequestStream.WriteAsync(new UploadFileRequest { Metadata = new FileMetadata { FileName = "twice.bin", Overwrite = true } }, TestTimeout.Token);
        await call.RequestStream.WriteAsync(new UploadFileRequest { Chunk = ByteString.CopyFromUtf8("partial") }, TestTimeout.Token);
        await call.RequestStream.WriteAsync(new UploadFileRequest { Metadata = new FileMetadata { FileName = "other.bin" } }, TestTimeout.Token);

        var error = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);

        Assert.Equal(StatusCode.InvalidArgument, error.StatusCode);
        Assert.Equal("INVALID_UPLOAD_STREAM", GrpcAssert.Reason(error));
        AssertOnly("twice.bin", old);
    }

    [Fact]
    public async Task An_Empty_Stream_Is_Invalid_Argument()
    {
        using var call = GrpcClients.For(_server).UploadFile(cancellationToken: TestTimeout.Token);
        await call.RequestStream.CompleteAsync();

        var error = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);

        Assert.Equal(StatusCode.InvalidArgument, error.StatusCode);
        Assert.Contains("empty", error.Status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_Declared_Size_Over_The_Limit_Is_Refused_Before_Any_Byte()
    {
        _server.With("Storage:MaxFileSizeBytes", "1000000");

        var error = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.UploadAsync(GrpcClients.For(_server), new FileMetadata { FileName = "big.bin", Size = 1_000_001 }, [], Chunk, TestTimeout.Token));

        Assert.Equal(StatusCode.ResourceExhausted, error.StatusCode);
        Assert.Equal("FILE_TOO_LARGE", GrpcAssert.Reason(error));
        Assert.Empty(_server.Storage.Files());
    }

    [Fact]
    public async Task Passing_The_Size_Limit_Mid_Stream_Ends_The_Call_At_Once_With_Nothing_Stored()
    {
        _server.With("Storage:MaxFileSizeBytes", "1000000");
        var old = _server.Storage.WriteRandom("limit.bin", 10);
        using var call = GrpcClients.For(_server).UploadFile(cancellationToken: TestTimeout.Token);
        await call.RequestStream.WriteAsync(new UploadFileRequest { Metadata = new FileMetadata { FileName = "limit.bin", Overwrite = true } }, TestTimeout.Token);

        // Keep sending well past the limit: the server answers as soon as it is passed, and the
        // client's next writes fail because the call is over, long before 64 MiB went out.
        var sent = 0L;
        try
        {
            for (; sent < 64L * 1024 * 1024; sent += Chunk)
            {
                await call.RequestStream.WriteAsync(new UploadFileRequest { Chunk = ByteString.CopyFrom(TestData.RandomBytes(Chunk)) }, TestTimeout.Token);
            }
        }
        catch (RpcException)
        {
        }

        var error = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);
        Assert.Equal(StatusCode.ResourceExhausted, error.StatusCode);
        Assert.True(sent < 32L * 1024 * 1024, $"the client could send {sent:N0} bytes after the limit was passed");
        AssertOnly("limit.bin", old);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_Cancelled_Or_Cut_Upload_Commits_Nothing_And_Leaves_No_Temporary_File(bool dropConnection)
    {
        var old = _server.Storage.WriteRandom("abort.bin", 1000);
        var handler = new SocketsHttpHandler();
        var channel = GrpcClients.Channel(_server.AddressOf(HttpProtocols.Http2), handler: handler);
        using var cancel = new CancellationTokenSource();
        var call = new FileService.FileServiceClient(channel).UploadFile(cancellationToken: cancel.Token);
        await call.RequestStream.WriteAsync(new UploadFileRequest { Metadata = new FileMetadata { FileName = "abort.bin", Overwrite = true } }, TestTimeout.Token);
        await call.RequestStream.WriteAsync(new UploadFileRequest { Chunk = ByteString.CopyFrom(TestData.RandomBytes(3_000_000)) }, TestTimeout.Token);
        await Rest.AtomicCommitTests.WaitUntilAsync(() => _server.Storage.TempFiles().Count == 1);

        if (dropConnection)
        {
            channel.Dispose(); // closes the HTTP/2 connection under the call
        }
        else
        {
            await cancel.CancelAsync();
        }

        await Assert.ThrowsAnyAsync<Exception>(() => call.ResponseAsync);
        await Rest.AtomicCommitTests.WaitUntilAsync(() => _server.Storage.TempFiles().Count == 0);
        AssertOnly("abort.bin", old);
        call.Dispose();
        channel.Dispose();
    }

    [Fact]
    public async Task Eight_Racing_Uploads_To_One_Name_End_With_One_Complete_File()
    {
        var client = GrpcClients.For(_server);
        var sources = Enumerable.Range(0, 8).Select(_ => TestData.RandomBytes(2_000_000)).ToArray();

        await Task.WhenAll(sources.Select(s => GrpcTransfers.UploadAsync(client, "race.bin", s, Chunk, TestTimeout.Token)));

        var final = GrpcTransfers.Sha256Hex(await File.ReadAllBytesAsync(_server.Storage.PathOf("race.bin"), TestTimeout.Token));
        Assert.Contains(final, sources.Select(GrpcTransfers.Sha256Hex));
        Assert.Equal(["race.bin"], _server.Storage.VisibleFiles());
        Assert.Empty(_server.Storage.TempFiles());
    }

    private void AssertOnly(string name, byte[] content)
    {
        Assert.Equal([name], _server.Storage.VisibleFiles());
        Assert.Empty(_server.Storage.TempFiles());
        Assert.Equal(GrpcTransfers.Sha256Hex(content), GrpcTransfers.Sha256Hex(File.ReadAllBytes(_server.Storage.PathOf(name))));
    }

    public void Dispose() => _server.Dispose();
}
