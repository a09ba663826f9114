using System.Net;
using System.Security.Cryptography;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Uploads;

/// <summary>tus 1.0.0 at api/uploads: the core protocol and the extensions the server lists, every stored file compared by SHA-256.</summary>
public sealed class TusTests : IDisposable
{
    private const string WriteOnlyKey = "write-only-key-0123456789abcdef";
    private const string DeleteKey = "delete-only-key-0123456789abcdef";

    private readonly FileTransferFactory _factory = new FileTransferFactory()
        .With("Auth:ApiKeys:1:Key", WriteOnlyKey).With("Auth:ApiKeys:1:Scopes:0", "write")
        .With("Auth:ApiKeys:2:Key", DeleteKey).With("Auth:ApiKeys:2:Scopes:0", "delete");

    [Fact]
    public async Task Options_Lists_The_Version_Extensions_Size_Limit_And_Checksums_Without_A_Key()
    {
        using var client = _factory.CreateClient();
        client.DefaultRequestHeaders.Authorization = null;

        using var response = await client.SendAsync(new HttpRequestMessage(HttpMethod.Options, Tus.Endpoint), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.NoContent, response.StatusCode);
        Assert.Equal("1.0.0", response.Headers.GetValues("Tus-Version").Single());
        Assert.Equal("1.0.0", response.Headers.GetValues("Tus-Resumable").Single());
        Assert.Equal(
            ["checksum", "creation", "creation-defer-length", "creation-with-upload", "expiration", "termination"],
            response.Headers.GetValues("Tus-Extension").Single().Split(',').Order(StringComparer.Ordinal));
        Assert.Contains("sha256", response.Headers.GetValues("Tus-Checksum-Algorithm").Single().Split(','));
        Assert.True(long.Parse(response.Headers.GetValues("Tus-Max-Size").Single(), System.Globalization.CultureInfo.InvariantCulture) > 0);
    }

    [Theory]
    [InlineData(0, 1000)]
    [InlineData(1, 1000)]
    [InlineData((256 * 1024) - 1, 100_000)]
    [InlineData((256 * 1024) + 1, 256 * 1024)]
    [InlineData((3 * 1024 * 1024) + 12345, 1024 * 1024)]
    public async Task Uploads_In_Pieces_Nothing_Visible_Until_The_Last_And_Stores_The_SHA256(int size, int piece)
    {
        var source = TestData.RandomBytes(size);
        using var client = _factory.CreateClient();
        var location = await Tus.CreateAsync(client, "tus/in-pieces.bin", size);

        for (var offset = 0; offset < size; offset += piece)
        {
            Assert.DoesNotContain("tus/in-pieces.bin", _factory.Storage.VisibleFiles());
            var end = Math.Min(size, offset + piece);
            using var patch = await Tus.AppendAsync(client, location, source, offset, end);
            Assert.Equal(HttpStatusCode.NoContent, patch.StatusCode);
            Assert.Equal(end, Tus.Offset(patch));
        }

        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(File.ReadAllBytes(_factory.Storage.PathOf("tus/in-pieces.bin"))));
        using var head = await client.SendAsync(Tus.Head(location), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.OK, head.StatusCode);
        Assert.Equal(size, Tus.Offset(head));
        Assert.Equal($"sha-256=:{Convert.ToBase64String(SHA256.HashData(source))}:", head.Headers.GetValues("Repr-Digest").Single());
        Assert.Equal("no-store", head.Headers.CacheControl?.ToString());
    }

    [Fact]
    public async Task A_Wrong_Offset_Is_409_Problem_With_The_Durable_Offset_And_Loses_Nothing()
    {
        var source = TestData.RandomBytes(300_000);
        using var client = _factory.CreateClient();
        var location = await Tus.CreateAsync(client, "tus/offset.bin", source.Length);
        using var first = await Tus.AppendAsync(client, location, source, 0, 100_000);

        using var ahead = await Tus.AppendAsync(client, location, source, 150_000, 300_000);
        using var behind = await Tus.AppendAsync(client, location, source, 50_000, 300_000);

        foreach (var refused in new[] { ahead, behind })
        {
            var problem = await Problems.AssertAsync(refused, HttpStatusCode.Conflict);
            Assert.Equal("UPLOAD_OFFSET_MISMATCH", problem.GetProperty("reason").GetString());
            Assert.Equal(100_000, problem.GetProperty("expected-offset").GetInt64());
            Assert.Equal("100000", refused.Headers.GetValues("Upload-Offset").Single());
        }

        using var rest = await Tus.AppendAsync(client, location, source, 100_000, 300_000);
        Assert.Equal(HttpStatusCode.NoContent, rest.StatusCode);
        Assert.Equal(source, File.ReadAllBytes(_factory.Storage.PathOf("tus/offset.bin")));
    }

    [Fact]
    public async Task A_Deferred_Length_Is_Declared_By_A_Later_Patch_And_Then_Completes()
    {
        var source = TestData.RandomBytes(70_000);
        using var client = _factory.CreateClient();
        var location = await Tus.CreateAsync(client, "tus/deferred.bin", length: null);
        using (var head = await client.SendAsync(Tus.Head(location), TestTimeout.Token))
        {
            Assert.Equal("1", head.Headers.GetValues("Upload-Defer-Length").Single());
            Assert.False(head.Headers.Contains("Upload-Length"));
        }

        using var first = await Tus.AppendAsync(client, location, source, 0, 30_000);
        Assert.DoesNotContain("tus/deferred.bin", _factory.Storage.VisibleFiles());
        using var last = Tus.Patch(location, 30_000, source[30_000..]);
        last.Headers.Add("Upload-Length", "70000");
        using var answer = await client.SendAsync(last, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.NoContent, answer.StatusCode);
        Assert.Equal(source, File.ReadAllBytes(_factory.Storage.PathOf("tus/deferred.bin")));
    }

    [Fact]
    public async Task Creation_With_Upload_Takes_The_First_Bytes_In_The_Post()
    {
        var source = TestData.RandomBytes(50_000);
        using var client = _factory.CreateClient();
        using var create = Tus.Create(source.Length, ("filename", "with-upload.bin"));
        create.Content = Tus.Bytes(source[..20_000]);

        using var created = await client.SendAsync(create, TestTimeout.Token);
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.Equal(20_000, Tus.Offset(created));
        Assert.True(DateTimeOffset.TryParse(created.Headers.GetValues("Upload-Expires").Single(), out var expires));
        Assert.InRange(expires, DateTimeOffset.UtcNow.AddHours(23), DateTimeOffset.UtcNow.AddHours(25));

        var location = new Uri(client.BaseAddress!, created.Headers.Location!);
        using var rest = await Tus.AppendAsync(client, location, source, 20_000, 50_000);
        Assert.Equal(HttpStatusCode.NoContent, rest.StatusCode);
        Assert.Equal(source, File.ReadAllBytes(_factory.Storage.PathOf("with-upload.bin")));
    }

    [Fact]
    public async Task Termination_Removes_The_Upload_And_Its_Bytes()
    {
        var source = TestData.RandomBytes(400_000);
        using var client = _factory.CreateClient();
        var location = await Tus.CreateAsync(client, "tus/terminated.bin", source.Length);
        using var part = await Tus.AppendAsync(client, location, source, 0, 300_000);
        Assert.Contains(_factory.Storage.Files(), f => f.EndsWith(".part", StringComparison.Ordinal));

        using var deleted = await client.SendAsync(Tus.Delete(location), TestTimeout.Token);
        using var head = await client.SendAsync(Tus.Head(location), TestTimeout.Token);
        using var patch = await Tus.AppendAsync(client, location, source, 300_000, 400_000);

        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, head.StatusCode);
        await Problems.AssertAsync(patch, HttpStatusCode.NotFound);
        Assert.DoesNotContain(_factory.Storage.Files(), f => f.StartsWith("tus/", StringComparison.Ordinal) || f.EndsWith(".part", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_Checksum_Mismatch_Is_460_And_Keeps_None_Of_The_Request()
    {
        var source = TestData.RandomBytes(100_000);
        using var client = _factory.CreateClient();
        var location = await Tus.CreateAsync(client, "tus/checksum.bin", source.Length);

        using var wrong = await client.SendAsync(Tus.Patch(location, 0, source[..60_000], Tus.Sha256Checksum(source[..59_999])), TestTimeout.Token);
        var problem = await Problems.AssertAsync(wrong, (HttpStatusCode)460);
        Assert.Equal("CHECKSUM_MISMATCH", problem.GetProperty("reason").GetString());
        using (var head = await client.SendAsync(Tus.Head(location), TestTimeout.Token))
        {
            Assert.Equal(0, Tus.Offset(head));
        }

        using var right = await client.SendAsync(Tus.Patch(location, 0, source[..60_000], Tus.Sha256Checksum(source[..60_000])), TestTimeout.Token);
        using var rest = await client.SendAsync(Tus.Patch(location, 60_000, source[60_000..], Tus.Sha256Checksum(source[60_000..])), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.NoContent, right.StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, rest.StatusCode);
        Assert.Equal(source, File.ReadAllBytes(_factory.Storage.PathOf("tus/checksum.bin")));
    }

    [Fact]
    public async Task A_Whole_File_SHA256_That_Does_Not_Match_Stores_Nothing()
    {
        _factory.Storage.Write("tus/kept.bin", [1, 2, 3]);
        var source = TestData.RandomBytes(1000);
        using var client = _factory.CreateClient();
        using var create = Tus.Create(source.Length, ("filename", "kept.bin"), ("folder", "tus"), ("sha256", Convert.ToHexString(SHA256.HashData(source[1..]))));
        using var created = await client.SendAsync(create, TestTimeout.Token);
        var location = new Uri(client.BaseAddress!, created.Headers.Location!);

        using var patch = await Tus.AppendAsync(client, location, source, 0, source.Length);

        var problem = await Problems.AssertAsync(patch, HttpStatusCode.BadRequest);
        Assert.Equal("DIGEST_MISMATCH", problem.GetProperty("reason").GetString());
        Assert.Equal([1, 2, 3], File.ReadAllBytes(_factory.Storage.PathOf("tus/kept.bin")));
        Assert.Equal(["tus/kept.bin"], _factory.Storage.Files().Where(f => f.StartsWith("tus/", StringComparison.Ordinal)));
    }

    [Theory]
    [InlineData("../escape.bin", "")]
    [InlineData("x.bin", "../..")]
    [InlineData("x.bin", "a/../../b")]
    [InlineData("", "folder")]
    [InlineData("nul\0.bin", "")]
    [InlineData(".ft-uploads", "")]
    public async Task A_Name_The_Rules_Refuse_Is_400_At_Creation(string fileName, string folder)
    {
        using var client = _factory.CreateClient();
        (string, string)[] metadata = folder.Length > 0 ? [("filename", fileName), ("folder", folder)] : [("filename", fileName)];

        using var response = await client.SendAsync(Tus.Create(10, metadata), TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.BadRequest);
        Assert.Empty(_factory.Storage.Files());
    }

    [Fact]
    public async Task Without_Tus_Resumable_Or_With_Another_Version_Is_412()
    {
        using var client = _factory.CreateClient();
        using var none = new HttpRequestMessage(HttpMethod.Post, Tus.Endpoint);
        none.Headers.Add("Upload-Length", "1");
        using var other = Tus.Create(1, ("filename", "v.bin"));
        other.Headers.Remove("Tus-Resumable");
        other.Headers.Add("Tus-Resumable", "0.2.2");

        foreach (var request in new[] { none, other })
        {
            using var response = await client.SendAsync(request, TestTimeout.Token);
            await Problems.AssertAsync(response, HttpStatusCode.PreconditionFailed);
            Assert.Equal("1.0.0", response.Headers.GetValues("Tus-Version").Single());
        }
    }

    [Fact]
    public async Task A_Patch_That_Is_Not_Offset_Octet_Stream_Is_415()
    {
        using var client = _factory.CreateClient();
        var location = await Tus.CreateAsync(client, "type.bin", 3);
        using var patch = Tus.Patch(location, 0, [1, 2, 3]);
        patch.Content!.Headers.ContentType = new("application/octet-stream");

        using var response = await client.SendAsync(patch, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.UnsupportedMediaType);
    }

    [Fact]
    public async Task If_None_Match_Star_Refuses_A_Creation_For_An_Existing_Name()
    {
        _factory.Storage.Write("exists.bin", [9]);
        using var client = _factory.CreateClient();
        using var create = Tus.Create(1, ("filename", "exists.bin"));
        create.Headers.Add("If-None-Match", "*");

        using var response = await client.SendAsync(create, TestTimeout.Token);

        Assert.Equal("FILE_EXISTS", (await Problems.AssertAsync(response, HttpStatusCode.PreconditionFailed)).GetProperty("reason").GetString());
    }

    [Fact]
    public async Task Another_Key_May_Not_Query_Continue_Or_Cancel_A_Session_But_A_Delete_Key_May()
    {
        var source = TestData.RandomBytes(2000);
        using var owner = _factory.CreateClient();
        var location = await Tus.CreateAsync(owner, "owned.bin", source.Length);
        using var first = await Tus.AppendAsync(owner, location, source, 0, 1000);
        using var stranger = _factory.CreateClient();
        stranger.DefaultRequestHeaders.Authorization = new("Bearer", WriteOnlyKey);

        using var head = await stranger.SendAsync(Tus.Head(location), TestTimeout.Token);
        using var patch = await Tus.AppendAsync(stranger, location, source, 1000, 2000);
        using var delete = await stranger.SendAsync(Tus.Delete(location), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Forbidden, head.StatusCode);
        Assert.Equal("PERMISSION_DENIED", (await Problems.AssertAsync(patch, HttpStatusCode.Forbidden)).GetProperty("reason").GetString());
        await Problems.AssertAsync(delete, HttpStatusCode.Forbidden);

        using var admin = _factory.CreateClient();
        admin.DefaultRequestHeaders.Authorization = new("Bearer", DeleteKey);
        using var adminHead = await admin.SendAsync(Tus.Head(location), TestTimeout.Token);
        Assert.Equal(1000, Tus.Offset(adminHead));

        // Nothing the stranger tried changed the upload: the owner finishes it.
        using var rest = await Tus.AppendAsync(owner, location, source, 1000, 2000);
        Assert.Equal(HttpStatusCode.NoContent, rest.StatusCode);
        Assert.Equal(source, File.ReadAllBytes(_factory.Storage.PathOf("owned.bin")));
    }

    [Fact]
    public async Task An_Unknown_Or_Malformed_Id_Is_404()
    {
        using var client = _factory.CreateClient();

        using var unknown = await client.SendAsync(Tus.Head(new Uri(client.BaseAddress!, "/api/uploads/AAAAAAAAAAAAAAAAAAAAAA")), TestTimeout.Token);
        using var malformed = await client.SendAsync(Tus.Patch(new Uri(client.BaseAddress!, "/api/uploads/..%2F..%2Fetc"), 0, [1]), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.NotFound, unknown.StatusCode);
        await Problems.AssertAsync(malformed, HttpStatusCode.NotFound);
    }

    public void Dispose() => _factory.Dispose();
}
