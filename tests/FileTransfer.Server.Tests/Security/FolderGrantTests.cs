using System.Net;
using System.Net.Http.Headers;
using System.Text;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Security;

/// <summary>A server with a key limited to <c>teams/a/</c>, a key with write and delete everywhere, and the full test key.</summary>
public sealed class FolderGrantServer : IDisposable
{
    public const string TeamKey = "team-a-key-0000000000000000";
    public const string WriteDeleteKey = "write-delete-key-00000000000";

    public FolderGrantServer()
    {
        Server.With("Auth:ApiKeys:1:Key", TeamKey)
            .With("Auth:ApiKeys:1:Scopes:0", "read").With("Auth:ApiKeys:1:Scopes:1", "write").With("Auth:ApiKeys:1:Scopes:2", "delete")
            .With("Auth:ApiKeys:1:Paths:0", "teams/a/")
            .With("Auth:ApiKeys:2:Key", WriteDeleteKey)
            .With("Auth:ApiKeys:2:Scopes:0", "write").With("Auth:ApiKeys:2:Scopes:1", "delete")
            .With("RateLimit:Enabled", "false");
        Server.Storage.Write("teams/a/mine.txt", [1]);
        Server.Storage.Write("teams/b/theirs.txt", [2]);
        Server.Storage.Write("top.txt", [3]);
    }

    public KestrelFactory Server { get; } = new();

    public void Dispose() => Server.Dispose();
}

/// <summary>
/// Folder grants (<c>Auth:ApiKeys:N:Paths:M</c>) and signed links as grants, decided by the core's one
/// policy for REST, gRPC and tus alike: inside, outside (the same answer whether the name exists),
/// listings, upload sessions and links.
/// </summary>
public sealed class FolderGrantTests(FolderGrantServer fixture) : IClassFixture<FolderGrantServer>
{
    private Uri Http1 => fixture.Server.AddressOf(HttpProtocols.Http1);

    [Fact]
    public async Task Outside_Its_Folder_A_Key_Gets_The_Same_Refusal_On_Rest_Whether_The_Name_Exists_Or_Not()
    {
        using var team = Client(FolderGrantServer.TeamKey);

        Assert.Equal([1], await team.GetByteArrayAsync("/api/files/teams/a/mine.txt", TestTimeout.Token));
        Assert.Equal(HttpStatusCode.Created, (await team.PutAsync("/api/files/teams/a/new.txt", new ByteArrayContent([4]), TestTimeout.Token)).StatusCode);
        var existing = await Problems.AssertAsync(await team.GetAsync("/api/files/teams/b/theirs.txt", TestTimeout.Token), HttpStatusCode.Forbidden);
        var missing = await Problems.AssertAsync(await team.GetAsync("/api/files/teams/b/nothing.txt", TestTimeout.Token), HttpStatusCode.Forbidden);
        var write = await Problems.AssertAsync(await team.PutAsync("/api/files/teams/b/x.txt", new ByteArrayContent([5]), TestTimeout.Token), HttpStatusCode.Forbidden);
        await Problems.AssertAsync(await team.DeleteAsync("/api/files/teams/b/theirs.txt", TestTimeout.Token), HttpStatusCode.Forbidden);

        Assert.Equal("PERMISSION_DENIED", existing.GetProperty("reason").GetString());
        Assert.Equal(existing.GetProperty("detail").GetString()!.Replace("theirs", "", StringComparison.Ordinal), missing.GetProperty("detail").GetString()!.Replace("nothing", "", StringComparison.Ordinal));
        Assert.Contains("'teams/b/'", write.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.False(File.Exists(fixture.Server.Storage.PathOf("teams/b/x.txt")));
        Assert.True(File.Exists(fixture.Server.Storage.PathOf("teams/b/theirs.txt")));
    }

    [Fact]
    public async Task Outside_Its_Folder_A_Key_Is_Permission_Denied_On_Grpc_Whether_The_Name_Exists_Or_Not()
    {
        var team = GrpcClients.For(fixture.Server, FolderGrantServer.TeamKey);

        var inside = await GrpcTransfers.DownloadAsync(team, "teams/a/mine.txt", TestTimeout.Token);
        Assert.Equal([1], inside.Bytes);
        foreach (var name in new[] { "teams/b/theirs.txt", "teams/b/nothing.txt" })
        {
            var refused = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.DownloadAsync(team, name, TestTimeout.Token));
            Assert.Equal(StatusCode.PermissionDenied, refused.StatusCode);
            Assert.Equal("PERMISSION_DENIED", ReasonOf(refused));
        }

        var upload = team.UploadFile(cancellationToken: TestTimeout.Token);
        await upload.RequestStream.WriteAsync(new UploadFileRequest { Metadata = new FileMetadata { FileName = "teams/b/grpc.txt", Overwrite = true } }, TestTimeout.Token);
        var write = await Assert.ThrowsAsync<RpcException>(async () =>
        {
            await upload.RequestStream.WriteAsync(new UploadFileRequest { Chunk = ByteString.CopyFrom(1) }, TestTimeout.Token);
            await upload.RequestStream.CompleteAsync();
            await upload;
        });
        Assert.Equal(StatusCode.PermissionDenied, write.StatusCode);
        Assert.False(File.Exists(fixture.Server.Storage.PathOf("teams/b/grpc.txt")));
        var session = await Assert.ThrowsAsync<RpcException>(() => team.StartUploadAsync(new StartUploadRequest { FileName = "teams/b/s.bin", Length = 3 }, cancellationToken: TestTimeout.Token).ResponseAsync);
        Assert.Equal(StatusCode.PermissionDenied, session.StatusCode);
    }

    [Fact]
    public async Task A_Listing_Shows_Only_What_Lies_Below_The_Keys_Folder_On_Both_Protocols()
    {
        using var team = Client(FolderGrantServer.TeamKey);

        var rest = await team.GetStringAsync("/api/files", TestTimeout.Token);
        var grpc = await GrpcClients.For(fixture.Server, FolderGrantServer.TeamKey).ListFilesAsync(new ListFilesRequest(), cancellationToken: TestTimeout.Token);

        Assert.Contains("teams/a/mine.txt", rest, StringComparison.Ordinal);
        Assert.DoesNotContain("theirs", rest, StringComparison.Ordinal);
        Assert.DoesNotContain("top.txt", rest, StringComparison.Ordinal);
        Assert.All(grpc.Files, file => Assert.StartsWith("teams/a/", file.FileName, StringComparison.Ordinal));
        Assert.Contains(grpc.Files, file => file.FileName == "teams/a/mine.txt");
        await Problems.AssertAsync(await team.GetAsync("/api/files?prefix=teams/b/", TestTimeout.Token), HttpStatusCode.Forbidden);
    }

    [Fact]
    public async Task Another_Keys_Session_May_Be_Queried_And_Cancelled_With_The_Delete_Scope_But_Never_Appended_To()
    {
        using var owner = Client(FileTransferFactory.TestKey);
        using var other = Client(FolderGrantServer.WriteDeleteKey);
        var location = await TusCreateAsync(owner, "sessions/owned.bin", 4);

        using var append = Tus(HttpMethod.Patch, location, new byte[] { 1, 2, 3, 4 }, offset: 0);
        var refused = await Problems.AssertAsync(await other.SendAsync(append, TestTimeout.Token), HttpStatusCode.Forbidden);
        Assert.Equal("PERMISSION_DENIED", refused.GetProperty("reason").GetString());
        var grpcWrite = GrpcClients.For(fixture.Server, FolderGrantServer.WriteDeleteKey).WriteUpload(cancellationToken: TestTimeout.Token);
        var uploadId = location.Split('/')[^1];
        var grpcRefused = await Assert.ThrowsAsync<RpcException>(async () =>
        {
            await grpcWrite.RequestStream.WriteAsync(new WriteUploadRequest { UploadId = uploadId, WriteOffset = 0, Chunk = ByteString.CopyFrom(1, 2, 3, 4), Finish = true }, TestTimeout.Token);
            await grpcWrite.RequestStream.CompleteAsync();
            await grpcWrite;
        });
        Assert.Equal(StatusCode.PermissionDenied, grpcRefused.StatusCode);

        using var status = Tus(HttpMethod.Head, location);
        using var statusAnswer = await other.SendAsync(status, TestTimeout.Token);
        Assert.Equal(HttpStatusCode.OK, statusAnswer.StatusCode);
        Assert.Equal("0", statusAnswer.Headers.GetValues("Upload-Offset").Single());
        using var cancel = Tus(HttpMethod.Delete, location);
        Assert.Equal(HttpStatusCode.NoContent, (await other.SendAsync(cancel, TestTimeout.Token)).StatusCode);
        Assert.False(File.Exists(fixture.Server.Storage.PathOf("sessions/owned.bin")));
    }

    [Fact]
    public async Task A_Read_Link_Serves_Grpc_DownloadFile_Of_Its_File_From_The_Call_Metadata_And_Nothing_Else()
    {
        using var issuer = Client(FileTransferFactory.TestKey);
        var link = await SignedLinkTests.IssueAsync(issuer, new { path = "teams/a/mine.txt", access = "read" });
        var client = new FileService.FileServiceClient(GrpcClients.Channel(fixture.Server.AddressOf(HttpProtocols.Http2), apiKey: null));
        var metadata = new Metadata { { "sig", link.Token } };

        var bytes = new List<byte>();
        using (var download = client.DownloadFile(new DownloadFileRequest { FileName = "teams/a/mine.txt" }, metadata, cancellationToken: TestTimeout.Token))
        {
            await foreach (var message in download.ResponseStream.ReadAllAsync(TestTimeout.Token))
            {
                bytes.AddRange(message.Chunk.ToByteArray());
            }
        }

        Assert.Equal([1], bytes);
        var other = await Assert.ThrowsAsync<RpcException>(async () =>
        {
            using var call = client.DownloadFile(new DownloadFileRequest { FileName = "top.txt" }, metadata, cancellationToken: TestTimeout.Token);
            await call.ResponseStream.MoveNext(TestTimeout.Token);
        });
        var list = await Assert.ThrowsAsync<RpcException>(() => client.ListFilesAsync(new ListFilesRequest(), metadata, cancellationToken: TestTimeout.Token).ResponseAsync);
        var delete = await Assert.ThrowsAsync<RpcException>(() => client.DeleteFileAsync(new DeleteFileRequest { FileName = "teams/a/mine.txt" }, metadata, cancellationToken: TestTimeout.Token).ResponseAsync);
        Assert.Equal(StatusCode.PermissionDenied, other.StatusCode);
        Assert.Equal(StatusCode.PermissionDenied, list.StatusCode);
        Assert.Equal(StatusCode.PermissionDenied, delete.StatusCode);
        Assert.True(File.Exists(fixture.Server.Storage.PathOf("teams/a/mine.txt")));
    }

    [Fact]
    public async Task A_Tus_Client_Uploads_Through_A_Signed_Write_Link_And_Only_To_Its_File()
    {
        using var issuer = Client(FileTransferFactory.TestKey);
        var link = await SignedLinkTests.IssueAsync(issuer, new { path = "inbox/by-link.bin", access = "write", maxBytes = 10 });
        using var anonymous = Client(null);
        var bytes = new byte[] { 9, 8, 7, 6, 5 };

        var location = await TusCreateAsync(anonymous, "inbox/by-link.bin", bytes.Length, $"?sig={link.Token}");
        Assert.Contains("sig=", location, StringComparison.Ordinal);
        using var append = Tus(HttpMethod.Patch, location, bytes, offset: 0);
        using var appended = await anonymous.SendAsync(append, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.NoContent, appended.StatusCode);
        Assert.Equal(bytes, File.ReadAllBytes(fixture.Server.Storage.PathOf("inbox/by-link.bin")));
        using var elsewhere = TusCreation("inbox/other.bin", 5, $"?sig={link.Token}");
        await Problems.AssertAsync(await anonymous.SendAsync(elsewhere, TestTimeout.Token), HttpStatusCode.Forbidden);
        using var tooLarge = TusCreation("inbox/by-link.bin", 11, $"?sig={link.Token}");
        await Problems.AssertAsync(await anonymous.SendAsync(tooLarge, TestTimeout.Token), HttpStatusCode.RequestEntityTooLarge);
    }

    private async Task<string> TusCreateAsync(HttpClient client, string name, long length, string query = "")
    {
        using var creation = TusCreation(name, length, query);
        using var created = await client.SendAsync(creation, TestTimeout.Token);
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        return created.Headers.Location!.ToString();
    }

    private static HttpRequestMessage TusCreation(string name, long length, string query)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, "/api/uploads" + query);
        request.Headers.Add("Tus-Resumable", "1.0.0");
        request.Headers.Add("Upload-Length", length.ToString(System.Globalization.CultureInfo.InvariantCulture));
        request.Headers.Add("Upload-Metadata", "filename " + Convert.ToBase64String(Encoding.UTF8.GetBytes(name)));
        return request;
    }

    private static HttpRequestMessage Tus(HttpMethod method, string location, byte[]? body = null, long offset = 0)
    {
        var request = new HttpRequestMessage(method, location);
        request.Headers.Add("Tus-Resumable", "1.0.0");
        if (body is not null)
        {
            request.Headers.Add("Upload-Offset", offset.ToString(System.Globalization.CultureInfo.InvariantCulture));
            request.Content = new ByteArrayContent(body) { Headers = { ContentType = new MediaTypeHeaderValue("application/offset+octet-stream") } };
        }

        return request;
    }

    private static string ReasonOf(RpcException exception) =>
        exception.GetRpcStatus()!.GetDetail<Google.Rpc.ErrorInfo>().Reason;

    private HttpClient Client(string? key)
    {
        var client = KestrelFactory.ClientFor(Http1, HttpVersion.Version11);
        client.DefaultRequestHeaders.Authorization = key is null ? null : new AuthenticationHeaderValue("Bearer", key);
        return client;
    }
}
