using System.Net;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>GetFileInfo, ListFiles and DeleteFile: the same answers REST gives, with the contract's status codes.</summary>
public sealed class FileOperationTests : IDisposable
{
    private readonly KestrelFactory _server = new();

    [Fact]
    public async Task GetFileInfo_Describes_The_File_With_Its_Digest()
    {
        var source = _server.Storage.WriteRandom("info/a.txt", 1234);

        var info = await GrpcClients.For(_server).GetFileInfoAsync(new GetFileInfoRequest { FileName = "info/a.txt" }, cancellationToken: TestTimeout.Token);

        Assert.Equal("info/a.txt", info.FileName);
        Assert.Equal(1234, info.Size);
        Assert.Equal("text/plain", info.ContentType);
        Assert.Equal(GrpcTransfers.Sha256Hex(source), Convert.ToHexString(info.Sha256.ToByteArray()));
        Assert.Matches("^\"[0-9a-f]+-4d2\"$", info.Etag);
    }

    [Theory]
    [InlineData("missing.txt", StatusCode.NotFound, "FILE_NOT_FOUND")]
    [InlineData("../secret.txt", StatusCode.InvalidArgument, "INVALID_FILE_NAME")]
    [InlineData("", StatusCode.InvalidArgument, "INVALID_FILE_NAME")]
    [InlineData(".ft-meta/sha256/x", StatusCode.InvalidArgument, "INVALID_FILE_NAME")]
    public async Task GetFileInfo_Refuses_Precisely(string name, StatusCode code, string reason)
    {
        var error = await Assert.ThrowsAsync<RpcException>(async () => await GrpcClients.For(_server).GetFileInfoAsync(new GetFileInfoRequest { FileName = name }, cancellationToken: TestTimeout.Token));

        Assert.Equal(code, error.StatusCode);
        Assert.Equal(reason, GrpcAssert.Reason(error));
        GrpcAssert.IsClean(error, _server.Storage.RootPath);
    }

    [Fact]
    public async Task ListFiles_Gives_The_Names_Order_And_Metadata_Rest_Lists()
    {
        foreach (var name in new[] { "b.txt", "a/x.bin", "a.txt", "a/y/z.bin", "A.txt", "é.txt" })
        {
            _server.Storage.WriteRandom(name, 10);
        }

        var listed = await GrpcClients.For(_server).ListFilesAsync(new ListFilesRequest(), cancellationToken: TestTimeout.Token);
        using var http = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        var rest = await http.GetFromJsonAsync<List<RestFile>>("/api/files", TestTimeout.Token);

        Assert.Equal(["A.txt", "a.txt", "a/x.bin", "a/y/z.bin", "b.txt", "é.txt"], listed.Files.Select(f => f.FileName));
        Assert.Equal(rest!.Select(f => (f.Name, f.Size, f.ETag, f.ContentType)), listed.Files.Select(f => (f.FileName, f.Size, f.Etag, f.ContentType)));
        Assert.Equal("", listed.NextPageToken);
    }

    [Fact]
    public async Task ListFiles_Pages_Through_Everything_Under_A_Prefix_In_Order()
    {
        var names = Enumerable.Range(0, 25).Select(i => $"p/{i:D2}.bin").Concat(["p/sub/deep.bin", "q/other.bin", "p.txt"]).ToList();
        foreach (var name in names)
        {
            _server.Storage.WriteRandom(name, 1);
        }

        var client = GrpcClients.For(_server);
        var seen = new List<string>();
        var pages = 0;
        var request = new ListFilesRequest { Prefix = "p/", PageSize = 7 };
        do
        {
            var page = await client.ListFilesAsync(request, cancellationToken: TestTimeout.Token);
            Assert.True(page.Files.Count <= 7);
            seen.AddRange(page.Files.Select(f => f.FileName));
            request.PageToken = page.NextPageToken;
            pages++;
        }
        while (request.PageToken.Length > 0);

        Assert.Equal(names.Where(n => n.StartsWith("p/", StringComparison.Ordinal)).Order(StringComparer.Ordinal), seen);
        Assert.Equal(4, pages);
    }

    [Theory]
    [InlineData("not a token")]
    [InlineData("eyJQIjoicS8iLCJDIjoicS96In0")] // base64url of {"P":"q/","C":"q/z"}: issued for another prefix
    public async Task ListFiles_Refuses_A_Token_It_Did_Not_Issue_For_This_Prefix(string token)
    {
        var error = await Assert.ThrowsAsync<RpcException>(async () => await GrpcClients.For(_server).ListFilesAsync(new ListFilesRequest { Prefix = "p/", PageToken = token }, cancellationToken: TestTimeout.Token));

        Assert.Equal(StatusCode.InvalidArgument, error.StatusCode);
        Assert.Equal("INVALID_PAGE_REQUEST", GrpcAssert.Reason(error));
    }

    [Fact]
    public async Task ListFiles_Refuses_A_Negative_Page_Size_And_Caps_A_Large_One()
    {
        _server.Storage.WriteRandom("one.bin", 1);
        var client = GrpcClients.For(_server);

        var error = await Assert.ThrowsAsync<RpcException>(async () => await client.ListFilesAsync(new ListFilesRequest { PageSize = -1 }, cancellationToken: TestTimeout.Token));
        var capped = await client.ListFilesAsync(new ListFilesRequest { PageSize = int.MaxValue }, cancellationToken: TestTimeout.Token);

        Assert.Equal(StatusCode.InvalidArgument, error.StatusCode);
        Assert.Equal(["one.bin"], capped.Files.Select(f => f.FileName));
    }

    [Fact]
    public async Task DeleteFile_Removes_The_File_Then_Reports_Not_Found()
    {
        _server.Storage.WriteRandom("gone.bin", 10);
        var client = GrpcClients.For(_server);

        await client.DeleteFileAsync(new DeleteFileRequest { FileName = "gone.bin" }, cancellationToken: TestTimeout.Token);
        var again = await Assert.ThrowsAsync<RpcException>(async () => await client.DeleteFileAsync(new DeleteFileRequest { FileName = "gone.bin" }, cancellationToken: TestTimeout.Token));

        Assert.Empty(_server.Storage.VisibleFiles());
        Assert.Equal(StatusCode.NotFound, again.StatusCode);
    }

    [Theory]
    [InlineData("not-an-etag")]
    [InlineData("$ETAG")]
    public async Task DeleteFile_With_A_Malformed_If_Match_Is_Failed_Precondition_And_Deletes_Nothing(string ifMatch)
    {
        var source = _server.Storage.WriteRandom("kept.bin", 10);
        var client = GrpcClients.For(_server);

        var error = await Assert.ThrowsAsync<RpcException>(async () => await client.DeleteFileAsync(new DeleteFileRequest { FileName = "kept.bin", IfMatch = ifMatch }, cancellationToken: TestTimeout.Token));

        Assert.Equal(StatusCode.FailedPrecondition, error.StatusCode);
        Assert.Equal(source, await File.ReadAllBytesAsync(_server.Storage.PathOf("kept.bin"), TestTimeout.Token));
    }

    [Fact]
    public async Task If_Match_Star_Means_Any_Existing_Version_As_In_Http()
    {
        _server.Storage.WriteRandom("any.bin", 10);
        var client = GrpcClients.For(_server);

        // DeleteFile: "*" deletes whatever version exists; a file that is gone is NOT_FOUND, since
        // without the condition the answer would not have been a success either (RFC 9110 13.2.1).
        await client.DeleteFileAsync(new DeleteFileRequest { FileName = "any.bin", IfMatch = "*" }, cancellationToken: TestTimeout.Token);
        var gone = await Assert.ThrowsAsync<RpcException>(async () => await client.DeleteFileAsync(new DeleteFileRequest { FileName = "any.bin", IfMatch = "*" }, cancellationToken: TestTimeout.Token));
        // UploadFile: "*" replaces only a file that exists.
        var absent = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.UploadAsync(client, new FileMetadata { FileName = "any.bin", IfMatch = "*" }, [1], 1024, TestTimeout.Token));

        Assert.Equal(StatusCode.NotFound, gone.StatusCode);
        Assert.Equal("ETAG_MISMATCH", GrpcAssert.Reason(absent));
        Assert.Empty(_server.Storage.VisibleFiles());
    }

    [Fact]
    public async Task DeleteFile_With_An_Old_ETag_Is_Failed_Precondition_And_Deletes_Nothing()
    {
        var source = _server.Storage.WriteRandom("held.bin", 10);
        var client = GrpcClients.For(_server);
        var etag = (await client.GetFileInfoAsync(new GetFileInfoRequest { FileName = "held.bin" }, cancellationToken: TestTimeout.Token)).Etag;
        File.SetLastWriteTimeUtc(_server.Storage.PathOf("held.bin"), DateTime.UtcNow.AddMinutes(1));

        var error = await Assert.ThrowsAsync<RpcException>(async () => await client.DeleteFileAsync(new DeleteFileRequest { FileName = "held.bin", IfMatch = etag }, cancellationToken: TestTimeout.Token));
        var current = (await client.GetFileInfoAsync(new GetFileInfoRequest { FileName = "held.bin" }, cancellationToken: TestTimeout.Token)).Etag;
        await client.DeleteFileAsync(new DeleteFileRequest { FileName = "held.bin", IfMatch = current }, cancellationToken: TestTimeout.Token);

        Assert.Equal(StatusCode.FailedPrecondition, error.StatusCode);
        Assert.Equal("ETAG_MISMATCH", GrpcAssert.Reason(error));
        Assert.NotEqual(etag, current);
        Assert.Empty(_server.Storage.VisibleFiles());
        _ = source;
    }

    public void Dispose() => _server.Dispose();

    private sealed record RestFile(string Name, long Size, string ContentType, string ETag);
}
