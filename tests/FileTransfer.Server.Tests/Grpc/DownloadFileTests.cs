using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>DownloadFile over real Kestrel with Grpc.Net.Client: metadata first, exact chunks, the same bytes.</summary>
public sealed class DownloadFileTests : IDisposable
{
    private const int Chunk = 32 * 1024;
    private readonly KestrelFactory _server = new();
    private readonly TestCertificate _certificate = new();

    public DownloadFileTests() => _certificate.AddEndpointTo(_server);

    public static TheoryData<int, bool> SizesAndTransports()
    {
        var data = new TheoryData<int, bool>();
        foreach (var size in new[] { 0, 1, Chunk - 1, Chunk, Chunk + 1, (3 * 1024 * 1024) + 12345 })
        {
            data.Add(size, false);
            data.Add(size, true);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(SizesAndTransports))]
    public async Task Sends_Metadata_Then_Exact_Chunks_With_The_Source_Bytes(int size, bool tls)
    {
        var source = _server.Storage.WriteRandom($"sizes/{size}.bin", size);
        var client = tls
            ? new FileService.FileServiceClient(GrpcClients.Channel(_server.AddressOf(HttpProtocols.Http1AndHttp2), handler: _certificate.TrustingHandler()))
            : GrpcClients.For(_server);

        var download = await GrpcTransfers.DownloadAsync(client, $"sizes/{size}.bin", TestTimeout.Token);

        var metadata = download.Metadata;
        Assert.Equal($"sizes/{size}.bin", metadata.FileName);
        Assert.Equal("application/octet-stream", metadata.ContentType);
        Assert.Equal(size, metadata.Size);
        Assert.Equal(GrpcTransfers.Sha256Hex(source), Convert.ToHexString(metadata.Sha256.ToByteArray()));
        Assert.Equal((size + Chunk - 1) / Chunk, download.Chunks.Count);
        Assert.All(download.Chunks.SkipLast(1), chunk => Assert.Equal(Chunk, chunk.Length));
        Assert.Equal(GrpcTransfers.Sha256Hex(source), GrpcTransfers.Sha256Hex(download.Bytes));
    }

    [Fact]
    public async Task Metadata_Carries_The_Rest_ETag_Digest_And_Time()
    {
        _server.Storage.WriteRandom("docs/report.pdf", 5000);
        var client = GrpcClients.For(_server);
        using var http = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), System.Net.HttpVersion.Version11);

        var metadata = (await GrpcTransfers.DownloadAsync(client, "docs/report.pdf", TestTimeout.Token)).Metadata;
        using var head = new HttpRequestMessage(HttpMethod.Head, "/api/files/docs/report.pdf");
        using var rest = await http.SendAsync(head, TestTimeout.Token);

        Assert.Equal(rest.Headers.ETag!.ToString(), metadata.Etag);
        Assert.Equal(rest.Headers.GetValues("Repr-Digest").Single(), $"sha-256=:{Convert.ToBase64String(metadata.Sha256.ToByteArray())}:");
        // Last-Modified has whole seconds (RFC 9110 5.6.7); the timestamp keeps the file's precision.
        Assert.Equal(rest.Content.Headers.LastModified!.Value.ToUnixTimeSeconds(), metadata.LastModified.Seconds);
        Assert.Equal("application/pdf", metadata.ContentType);
    }

    [Theory]
    [InlineData(0, 0, 100_000)]
    [InlineData(1, 0, 99_999)]
    [InlineData(Chunk, 0, 100_000 - Chunk)]
    [InlineData(12_345, 10, 10)]
    [InlineData(12_345, Chunk + 7, Chunk + 7)]
    [InlineData(99_999, 1, 1)]
    [InlineData(90_000, 50_000, 10_000)]
    public async Task Offset_And_Limit_Select_The_Bytes_And_A_Limit_Past_The_End_Is_Clamped(long offset, long limit, int expected)
    {
        var source = _server.Storage.WriteRandom("range.bin", 100_000);

        var download = await GrpcTransfers.DownloadAsync(GrpcClients.For(_server), new DownloadFileRequest { FileName = "range.bin", Offset = offset, Limit = limit }, TestTimeout.Token);

        Assert.Equal(100_000, download.Metadata.Size);
        Assert.Equal(source.AsSpan((int)offset, expected).ToArray(), download.Bytes);
        Assert.All(download.Chunks.SkipLast(1), chunk => Assert.Equal(Chunk, chunk.Length));
    }

    [Fact]
    public async Task Offset_Equal_To_The_Size_Sends_Metadata_And_No_Chunk()
    {
        _server.Storage.WriteRandom("end.bin", 777);

        var download = await GrpcTransfers.DownloadAsync(GrpcClients.For(_server), new DownloadFileRequest { FileName = "end.bin", Offset = 777 }, TestTimeout.Token);

        Assert.Equal(777, download.Metadata.Size);
        Assert.Empty(download.Chunks);
    }

    [Fact]
    public async Task Offset_Past_The_End_Is_Out_Of_Range()
    {
        _server.Storage.WriteRandom("short.bin", 10);

        var error = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.DownloadAsync(GrpcClients.For(_server), new DownloadFileRequest { FileName = "short.bin", Offset = 11 }, TestTimeout.Token));

        Assert.Equal(StatusCode.OutOfRange, error.StatusCode);
        Assert.Equal("OFFSET_PAST_END", GrpcAssert.Reason(error));
    }

    [Theory]
    [InlineData(-1, 0)]
    [InlineData(0, -1)]
    public async Task Negative_Offset_Or_Limit_Is_Invalid_Argument(long offset, long limit)
    {
        _server.Storage.WriteRandom("neg.bin", 10);

        var error = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.DownloadAsync(GrpcClients.For(_server), new DownloadFileRequest { FileName = "neg.bin", Offset = offset, Limit = limit }, TestTimeout.Token));

        Assert.Equal(StatusCode.InvalidArgument, error.StatusCode);
    }

    [Fact]
    public async Task Missing_File_Is_Not_Found_And_A_Folder_Too()
    {
        _server.Storage.WriteRandom("folder/inside.bin", 1);
        var client = GrpcClients.For(_server);

        foreach (var name in new[] { "missing.bin", "folder" })
        {
            var error = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.DownloadAsync(client, name, TestTimeout.Token));
            Assert.Equal(StatusCode.NotFound, error.StatusCode);
            Assert.Equal($"There is no file named '{name}'.", error.Status.Detail);
        }
    }

    [Fact]
    public async Task If_Match_With_The_Current_ETag_Sends_And_With_An_Old_One_Fails_Without_Bytes()
    {
        var source = _server.Storage.WriteRandom("versioned.bin", 70_000);
        var client = GrpcClients.For(_server);
        var etag = (await client.GetFileInfoAsync(new GetFileInfoRequest { FileName = "versioned.bin" }, cancellationToken: TestTimeout.Token)).Etag;

        var current = await GrpcTransfers.DownloadAsync(client, new DownloadFileRequest { FileName = "versioned.bin", IfMatch = etag }, TestTimeout.Token);
        File.SetLastWriteTimeUtc(_server.Storage.PathOf("versioned.bin"), DateTime.UtcNow.AddMinutes(1));
        using var call = client.DownloadFile(new DownloadFileRequest { FileName = "versioned.bin", IfMatch = etag }, cancellationToken: TestTimeout.Token);
        var error = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(TestTimeout.Token));

        Assert.Equal(source, current.Bytes);
        Assert.Equal(StatusCode.FailedPrecondition, error.StatusCode);
        Assert.Equal("ETAG_MISMATCH", GrpcAssert.Reason(error));
    }

    [Fact]
    public async Task Replace_During_A_Download_Does_Not_Change_The_Bytes_Being_Sent()
    {
        var old = _server.Storage.WriteRandom("race.bin", 48 * 1024 * 1024);
        var client = GrpcClients.For(_server);
        using var call = client.DownloadFile(new DownloadFileRequest { FileName = "race.bin" }, cancellationToken: TestTimeout.Token);
        Assert.True(await call.ResponseStream.MoveNext(TestTimeout.Token));
        var metadata = call.ResponseStream.Current.Metadata;

        var replacement = TestData.RandomBytes(1000);
        await GrpcTransfers.UploadAsync(client, "race.bin", replacement, Chunk, TestTimeout.Token);
        var received = new MemoryStream();
        while (await call.ResponseStream.MoveNext(TestTimeout.Token))
        {
            call.ResponseStream.Current.Chunk.WriteTo(received);
        }

        Assert.Equal(old.Length, metadata.Size);
        Assert.Equal(GrpcTransfers.Sha256Hex(old), GrpcTransfers.Sha256Hex(received.ToArray()));
        Assert.Equal(replacement, await File.ReadAllBytesAsync(_server.Storage.PathOf("race.bin"), TestTimeout.Token));
    }

    [Fact]
    public async Task Cancel_Stops_The_Read_And_Closes_The_File()
    {
        _server.Storage.WriteRandom("cancel.bin", 64 * 1024 * 1024);
        var path = Path.GetFullPath(_server.Storage.PathOf("cancel.bin"));
        using var cancel = new CancellationTokenSource();
        using var call = GrpcClients.For(_server).DownloadFile(new DownloadFileRequest { FileName = "cancel.bin" }, cancellationToken: cancel.Token);
        Assert.True(await call.ResponseStream.MoveNext(TestTimeout.Token));
        Assert.True(await call.ResponseStream.MoveNext(TestTimeout.Token));
        Assert.True(OpenFiles.IsOpen(path), "the download holds the file open while it runs");

        await cancel.CancelAsync();

        Assert.True(await OpenFiles.WaitUntilClosedAsync(path, TimeSpan.FromSeconds(10)), "the server still holds the file open after the client cancelled");
    }

    [Fact]
    public async Task Deadline_Stops_The_Download_And_Closes_The_File()
    {
        _server.Storage.WriteRandom("deadline.bin", 64 * 1024 * 1024);
        var path = Path.GetFullPath(_server.Storage.PathOf("deadline.bin"));
        using var call = GrpcClients.For(_server).DownloadFile(new DownloadFileRequest { FileName = "deadline.bin" }, deadline: DateTime.UtcNow.AddSeconds(2));
        Assert.True(await call.ResponseStream.MoveNext(TestTimeout.Token));

        // Read nothing more: the server blocks on flow control until the deadline ends the call and
        // closes the file (polled: the deadline is the client's, two seconds from the call).
        Assert.True(await OpenFiles.WaitUntilClosedAsync(path, TimeSpan.FromSeconds(30)), "the server still holds the file open after the deadline");
        var error = await Assert.ThrowsAsync<RpcException>(async () =>
        {
            while (await call.ResponseStream.MoveNext(TestTimeout.Token))
            {
            }
        });

        Assert.Equal(StatusCode.DeadlineExceeded, error.StatusCode);
        Assert.True(await OpenFiles.WaitUntilClosedAsync(path, TimeSpan.FromSeconds(10)), "the server still holds the file open after the deadline");
    }

    public void Dispose()
    {
        _server.Dispose();
        _certificate.Dispose();
    }
}
