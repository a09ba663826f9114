using System.Globalization;
using System.Net;
using System.Security.Cryptography;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Uploads;

/// <summary>
/// What a hostile (or careless) client found on the resumable surfaces (issue 28): a commit that
/// meets a name taken meanwhile, floods of sessions, metadata a response cannot carry, names that
/// are not UTF-8, malformed draft fields, and a draft digest answered as tus's.
/// </summary>
public sealed class HostileSessionTests : IDisposable
{
    private const string OtherKey = "other-write-key-0123456789abcdef";

    private readonly FileTransferFactory _factory = new FileTransferFactory()
        .With("Auth:ApiKeys:1:Key", OtherKey).With("Auth:ApiKeys:1:Scopes:0", "write")
        .With("Uploads:MaxSessionsPerOwner", "3")
        .With("Uploads:MaxSessions", "5");

    [Fact]
    public Task A_Folder_Made_Before_The_Commit_Is_409_Name_Conflict_And_The_Session_Keeps_Every_Byte() =>
        SessionCommitConflicts.A_Folder_Made_Before_The_Commit_Is_409_And_The_Session_Is_Kept_Async(
            _factory, "conflict/file.bin", 300_000, name => Directory.Delete(_factory.Storage.PathOf(name)));

    [Fact]
    public async Task Over_Grpc_The_Same_Conflict_Is_Failed_Precondition_And_The_Session_Keeps_Every_Byte()
    {
        using var server = new KestrelFactory();
        var client = GrpcClients.For(server);
        var source = TestData.RandomBytes(5000);
        var started = await client.StartUploadAsync(new StartUploadRequest { FileName = "grpc/taken", Length = source.Length }, cancellationToken: TestTimeout.Token);
        await GrpcSessions.WriteAsync(client, started.UploadId, source, 0, 4000, finish: false);
        server.Storage.Write("grpc/taken/child.txt", [1]);

        var refused = await Assert.ThrowsAsync<RpcException>(() => GrpcSessions.WriteAsync(client, started.UploadId, source, 4000, source.Length, finish: true));

        Assert.Equal(StatusCode.FailedPrecondition, refused.StatusCode);
        Assert.Equal("NAME_CONFLICT", GrpcAssert.Reason(refused));
        GrpcAssert.IsClean(refused, server.Storage.RootPath);
        var status = await client.GetUploadStatusAsync(new GetUploadStatusRequest { UploadId = started.UploadId }, cancellationToken: TestTimeout.Token);
        Assert.Equal((source.Length, false), (status.Offset, status.Complete));
        await client.CancelUploadAsync(new CancelUploadRequest { UploadId = started.UploadId }, cancellationToken: TestTimeout.Token);
        Assert.Equal(["grpc/taken/child.txt"], server.Storage.Files().Where(f => !f.StartsWith(".ft-", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task A_Precondition_That_No_Longer_Holds_At_The_Commit_Is_412_And_The_Session_Is_Kept()
    {
        using var client = _factory.CreateClient();
        using var create = Tus.Create(3, ("filename", "late.bin"));
        create.Headers.Add("If-None-Match", "*");
        using var created = await client.SendAsync(create, TestTimeout.Token);
        var location = new Uri(client.BaseAddress!, created.Headers.Location!);
        _factory.Storage.Write("late.bin", [9]);

        using var last = await Tus.AppendAsync(client, location, [1, 2, 3], 0, 3);

        Assert.Equal("FILE_EXISTS", (await Problems.AssertAsync(last, HttpStatusCode.PreconditionFailed)).GetProperty("reason").GetString());
        using var head = await client.SendAsync(Tus.Head(location), TestTimeout.Token);
        Assert.Equal(3, Tus.Offset(head));
        Assert.Equal([9], File.ReadAllBytes(_factory.Storage.PathOf("late.bin")));
    }

    [Fact]
    public async Task Sessions_In_Progress_Are_Capped_Per_Owner_And_In_All_With_429_Too_Many_Uploads()
    {
        using var mine = _factory.CreateClient();
        using var other = _factory.CreateClient();
        other.DefaultRequestHeaders.Authorization = new("Bearer", OtherKey);
        var held = new List<Uri>();
        for (var i = 0; i < 3; i++)
        {
            held.Add(await Tus.CreateAsync(mine, $"cap/mine-{i}.bin", 10));
        }

        using (var fourth = await mine.SendAsync(Tus.Create(10, ("filename", "cap/mine-3.bin")), TestTimeout.Token))
        {
            Assert.Equal("TOO_MANY_UPLOADS", (await Problems.AssertAsync(fourth, HttpStatusCode.TooManyRequests)).GetProperty("reason").GetString());
        }

        // Another owner has its own cap, until the server's is reached.
        await Tus.CreateAsync(other, "cap/other-0.bin", 10);
        await Tus.CreateAsync(other, "cap/other-1.bin", 10);
        using (var over = await other.SendAsync(Draft.Create("cap/other-2.bin", [1], complete: false), TestTimeout.Token))
        {
            Assert.Equal("TOO_MANY_UPLOADS", (await Problems.AssertAsync(over, HttpStatusCode.TooManyRequests)).GetProperty("reason").GetString());
        }

        // A completed and a cancelled session no longer count.
        using (var done = await Tus.AppendAsync(mine, held[0], new byte[10], 0, 10))
        {
            Assert.Equal(HttpStatusCode.NoContent, done.StatusCode);
        }

        using (await mine.SendAsync(Tus.Delete(held[1]), TestTimeout.Token))
        {
        }

        await Tus.CreateAsync(mine, "cap/mine-4.bin", 10);
        await Tus.CreateAsync(other, "cap/other-2.bin", 10);
        Assert.Equal(["cap/mine-0.bin"], _factory.Storage.VisibleFiles().Where(f => f.StartsWith("cap/", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task Over_Grpc_The_Cap_Is_Resource_Exhausted_Too_Many_Uploads()
    {
        using var server = (KestrelFactory)new KestrelFactory().With("Uploads:MaxSessionsPerOwner", "1");
        var client = GrpcClients.For(server);
        await client.StartUploadAsync(new StartUploadRequest { FileName = "one.bin" }, cancellationToken: TestTimeout.Token);

        var refused = await Assert.ThrowsAsync<RpcException>(async () => await client.StartUploadAsync(new StartUploadRequest { FileName = "two.bin" }, cancellationToken: TestTimeout.Token));

        Assert.Equal(StatusCode.ResourceExhausted, refused.StatusCode);
        Assert.Equal("TOO_MANY_UPLOADS", GrpcAssert.Reason(refused));
    }

    [Fact]
    public async Task A_Session_Makes_No_Folder_Before_Its_Commit_And_Lives_An_Hour_Until_Its_First_Byte()
    {
        using var client = _factory.CreateClient();
        var before = DateTimeOffset.UtcNow;
        using var created = await client.SendAsync(Tus.Create(3, ("filename", "c.bin"), ("folder", "deep/a/b")), TestTimeout.Token);
        var location = new Uri(client.BaseAddress!, created.Headers.Location!);

        Assert.False(Directory.Exists(_factory.Storage.PathOf("deep")));
        Assert.InRange(ExpiresOf(created), before.AddMinutes(59), before.AddMinutes(61));
        using var first = await Tus.AppendAsync(client, location, [1, 2, 3], 0, 1);
        Assert.InRange(ExpiresOf(first), before.AddHours(23.9), before.AddHours(24.1));
        Assert.False(Directory.Exists(_factory.Storage.PathOf("deep")));

        using var last = await Tus.AppendAsync(client, location, [1, 2, 3], 1, 3);
        Assert.Equal(HttpStatusCode.NoContent, last.StatusCode);
        Assert.Equal([1, 2, 3], File.ReadAllBytes(_factory.Storage.PathOf("deep/a/b/c.bin")));
    }

    [Theory]
    [InlineData("filename YS5iaW4=,k\u00e9y YQ==")]
    [InlineData("filename YS5iaW4=,key\u007f YQ==")]
    [InlineData("filename YS5iaW4=,key\tYQ==")]
    public async Task Metadata_A_Response_Could_Not_Carry_Is_Refused_At_Creation(string metadata)
    {
        using var client = _factory.CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Post, Tus.Endpoint);
        request.Headers.Add("Tus-Resumable", "1.0.0");
        request.Headers.Add("Upload-Length", "3");
        request.Headers.TryAddWithoutValidation("Upload-Metadata", metadata);

        using var response = await client.SendAsync(request, TestTimeout.Token);

        Assert.Equal("INVALID_UPLOAD_STREAM", (await Problems.AssertAsync(response, HttpStatusCode.BadRequest)).GetProperty("reason").GetString());
    }

    [Fact]
    public async Task Metadata_With_A_Non_Ascii_Key_Never_Reaches_A_Head_On_Real_Kestrel()
    {
        using var server = new KestrelFactory();
        using var client = KestrelFactory.ClientFor(server.AddressOf(Microsoft.AspNetCore.Server.Kestrel.Core.HttpProtocols.Http1), HttpVersion.Version11, new SocketsHttpHandler
        {
            RequestHeaderEncodingSelector = (_, _) => System.Text.Encoding.UTF8,
        });
        using var request = Tus.Create(3, ("filename", "k.bin"));
        request.Headers.Remove("Upload-Metadata");
        request.Headers.TryAddWithoutValidation("Upload-Metadata", "filename YS5iaW4=,k\u00e9y YQ==");

        using var created = await client.SendAsync(request, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.BadRequest, created.StatusCode);
        Assert.Null(created.Headers.Location);
    }

    [Fact]
    public async Task A_File_Name_That_Is_Not_Utf8_Is_400_Invalid_File_Name_Never_Altered()
    {
        using var client = _factory.CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Post, Tus.Endpoint);
        request.Headers.Add("Tus-Resumable", "1.0.0");
        request.Headers.Add("Upload-Length", "3");
        request.Headers.Add("Upload-Metadata", "filename " + Convert.ToBase64String([(byte)'a', 0xC3, 0x28, (byte)'b']));

        using var response = await client.SendAsync(request, TestTimeout.Token);

        Assert.Equal("INVALID_FILE_NAME", (await Problems.AssertAsync(response, HttpStatusCode.BadRequest)).GetProperty("reason").GetString());
        Assert.DoesNotContain(_factory.Storage.Files(), f => f.EndsWith(".json", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("-5")]
    [InlineData("12abc")]
    [InlineData("1234567890123456")]
    public async Task The_Draft_Refuses_A_Malformed_Upload_Length(string length)
    {
        using var client = _factory.CreateClient();
        using var create = Draft.Create("draft/length.bin", [1, 2], complete: false);
        create.Headers.TryAddWithoutValidation("Upload-Length", length);

        using var response = await client.SendAsync(create, TestTimeout.Token);

        Assert.Equal("INVALID_UPLOAD_STREAM", (await Problems.AssertAsync(response, HttpStatusCode.BadRequest)).GetProperty("reason").GetString());
        Assert.Null(response.Headers.Location);
    }

    [Fact]
    public async Task The_Draft_Answers_A_Content_Digest_Mismatch_As_A_Plain_Upload_Does()
    {
        var source = TestData.RandomBytes(2000);
        using var client = _factory.CreateClient();
        using var created = await client.SendAsync(Draft.Create("draft/digest.bin", source[..1000], complete: false), TestTimeout.Token);
        var location = new Uri(client.BaseAddress!, created.Headers.Location!);
        using var append = Draft.Append(location, 1000, source[1000..], complete: true);
        append.Content!.Headers.Add("Content-Digest", $"sha-256=:{Convert.ToBase64String(SHA256.HashData(source))}:");
        using var plain = new HttpRequestMessage(HttpMethod.Put, "/api/files/draft/plain.bin") { Content = new ByteArrayContent(source[1000..]) };
        plain.Content.Headers.Add("Content-Digest", $"sha-256=:{Convert.ToBase64String(SHA256.HashData(source))}:");

        using var refused = await client.SendAsync(append, TestTimeout.Token);
        using var plainRefused = await client.SendAsync(plain, TestTimeout.Token);

        var problem = await Problems.AssertAsync(refused, plainRefused.StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Equal("DIGEST_MISMATCH", problem.GetProperty("reason").GetString());
        Assert.Equal("DIGEST_MISMATCH", (await Problems.AssertAsync(plainRefused, HttpStatusCode.BadRequest)).GetProperty("reason").GetString());
        using var head = await client.SendAsync(Draft.Head(location), TestTimeout.Token);
        Assert.Equal("1000", head.Headers.GetValues("Upload-Offset").Single());
    }

    public void Dispose() => _factory.Dispose();

    private static DateTimeOffset ExpiresOf(HttpResponseMessage response) =>
        DateTimeOffset.Parse(response.Headers.GetValues("Upload-Expires").Single(), CultureInfo.InvariantCulture);
}
