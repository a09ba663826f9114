using System.Net;
using System.Security.Cryptography;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Uploads;

/// <summary>
/// The IETF "Resumable Uploads for HTTP" draft: creation on the target (POST/PUT api/files/{path}),
/// the upload resource under api/uploads/ (HEAD, PATCH application/partial-upload, DELETE), limits,
/// the mismatching-upload-offset problem, and the interop versions shipping clients send.
/// </summary>
public sealed class DraftTests : IDisposable
{
    private readonly FileTransferFactory _factory = new();

    [Theory]
    [InlineData(5)]
    [InlineData(6)]
    [InlineData(7)]
    [InlineData(8)]
    public async Task Created_Incomplete_Then_Appended_Stores_The_File_With_Its_SHA256(int version)
    {
        var source = TestData.RandomBytes(600_000);
        using var client = _factory.CreateClient();

        using var created = await client.SendAsync(Draft.Create("draft/file.bin", source[..250_000], complete: false, version), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.StartsWith("/api/uploads/", created.Headers.Location!.OriginalString, StringComparison.Ordinal);
        Assert.Equal("250000", created.Headers.GetValues("Upload-Offset").Single());
        Assert.Equal("?0", created.Headers.GetValues("Upload-Complete").Single());
        Assert.Matches(@"^max-size=\d+, max-age=\d+$", created.Headers.GetValues("Upload-Limit").Single());
        Assert.DoesNotContain("draft/file.bin", _factory.Storage.VisibleFiles());
        var location = new Uri(client.BaseAddress!, created.Headers.Location!);

        using var head = await client.SendAsync(Draft.Head(location, version), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.NoContent, head.StatusCode);
        Assert.Equal("250000", head.Headers.GetValues("Upload-Offset").Single());
        Assert.Equal("no-store", head.Headers.CacheControl?.ToString());

        using var middle = await client.SendAsync(Draft.Append(location, 250_000, source[250_000..400_000], complete: false, version), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.NoContent, middle.StatusCode);
        using var last = await client.SendAsync(Draft.Append(location, 400_000, source[400_000..], complete: true, version), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, last.StatusCode);
        Assert.Equal("?1", last.Headers.GetValues("Upload-Complete").Single());
        Assert.Equal($"sha-256=:{Convert.ToBase64String(SHA256.HashData(source))}:", last.Headers.GetValues("Repr-Digest").Single());
        var stored = await last.Content.ReadFromJsonAsync<System.Text.Json.JsonElement>(TestTimeout.Token);
        Assert.Equal(Convert.ToHexStringLower(SHA256.HashData(source)), stored.GetProperty("sha256").GetString());
        Assert.Equal(source, File.ReadAllBytes(_factory.Storage.PathOf("draft/file.bin")));
    }

    [Fact]
    public async Task Version_3_Speaks_Upload_Incomplete()
    {
        var source = TestData.RandomBytes(1000);
        using var client = _factory.CreateClient();
        using var create = new HttpRequestMessage(HttpMethod.Put, "/api/files/draft/v3.bin") { Content = new ByteArrayContent(source[..400]) };
        create.Headers.Add("Upload-Draft-Interop-Version", "3");
        create.Headers.Add("Upload-Incomplete", "?1");

        using var created = await client.SendAsync(create, TestTimeout.Token);
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.Equal("?1", created.Headers.GetValues("Upload-Incomplete").Single());
        var location = new Uri(client.BaseAddress!, created.Headers.Location!);
        using var append = new HttpRequestMessage(HttpMethod.Patch, location) { Content = new ByteArrayContent(source[400..]) };
        append.Headers.Add("Upload-Draft-Interop-Version", "3");
        append.Headers.Add("Upload-Offset", "400");
        append.Headers.Add("Upload-Incomplete", "?0");
        using var done = await client.SendAsync(append, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, done.StatusCode);
        Assert.Equal(source, File.ReadAllBytes(_factory.Storage.PathOf("draft/v3.bin")));
    }

    [Fact]
    public async Task A_Complete_Creation_Is_Answered_As_A_Plain_Upload()
    {
        var source = TestData.RandomBytes(70_000);
        using var client = _factory.CreateClient();

        using var response = await client.SendAsync(Draft.Create("draft/whole.bin", source, complete: true), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        Assert.Equal("?1", response.Headers.GetValues("Upload-Complete").Single());
        Assert.Equal(source, File.ReadAllBytes(_factory.Storage.PathOf("draft/whole.bin")));
    }

    [Fact]
    public async Task A_Wrong_Offset_Is_409_With_The_Mismatching_Upload_Offset_Problem_Type()
    {
        var source = TestData.RandomBytes(3000);
        using var client = _factory.CreateClient();
        using var created = await client.SendAsync(Draft.Create("draft/offset.bin", source[..1000], complete: false), TestTimeout.Token);
        var location = new Uri(client.BaseAddress!, created.Headers.Location!);

        using var refused = await client.SendAsync(Draft.Append(location, 1500, source[1500..], complete: true), TestTimeout.Token);

        var problem = await Problems.AssertAsync(refused, HttpStatusCode.Conflict);
        Assert.Equal("https://iana.org/assignments/http-problem-types#mismatching-upload-offset", problem.GetProperty("type").GetString());
        Assert.Equal(1000, problem.GetProperty("expected-offset").GetInt64());
        Assert.Equal(1500, problem.GetProperty("provided-offset").GetInt64());
        using var right = await client.SendAsync(Draft.Append(location, 1000, source[1000..], complete: true), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.Created, right.StatusCode);
        Assert.Equal(source, File.ReadAllBytes(_factory.Storage.PathOf("draft/offset.bin")));
    }

    [Fact]
    public async Task An_Append_To_A_Completed_Upload_Is_400_Completed_Upload()
    {
        using var client = _factory.CreateClient();
        using var created = await client.SendAsync(Draft.Create("draft/done.bin", [1], complete: false), TestTimeout.Token);
        var location = new Uri(client.BaseAddress!, created.Headers.Location!);
        using var done = await client.SendAsync(Draft.Append(location, 1, [2], complete: true), TestTimeout.Token);

        using var again = await client.SendAsync(Draft.Append(location, 2, [3], complete: true), TestTimeout.Token);

        var problem = await Problems.AssertAsync(again, HttpStatusCode.BadRequest);
        Assert.Equal("https://iana.org/assignments/http-problem-types#completed-upload", problem.GetProperty("type").GetString());
        Assert.Equal([1, 2], File.ReadAllBytes(_factory.Storage.PathOf("draft/done.bin")));
    }

    [Fact]
    public async Task Delete_Cancels_The_Upload_And_Removes_Its_Bytes()
    {
        using var client = _factory.CreateClient();
        using var created = await client.SendAsync(Draft.Create("draft/cancel.bin", TestData.RandomBytes(300_000), complete: false), TestTimeout.Token);
        var location = new Uri(client.BaseAddress!, created.Headers.Location!);

        using var deleted = await client.SendAsync(Draft.Delete(location), TestTimeout.Token);
        using var head = await client.SendAsync(Draft.Head(location), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, head.StatusCode);
        Assert.DoesNotContain(_factory.Storage.Files(), f => f.StartsWith("draft/", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Options_Announces_Partial_Upload_And_The_Limits()
    {
        using var client = _factory.CreateClient();

        using var response = await client.SendAsync(new HttpRequestMessage(HttpMethod.Options, "/api/files/any/name.bin"), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.NoContent, response.StatusCode);
        Assert.Equal("application/partial-upload", response.Headers.GetValues("Accept-Patch").Single());
        Assert.Matches(@"^max-size=\d+, max-age=86400$", response.Headers.GetValues("Upload-Limit").Single());
    }

    [Fact]
    public async Task A_Version_Not_Served_Is_412_For_An_Incomplete_Creation_And_A_Plain_Upload_When_Complete()
    {
        using var factory = new FileTransferFactory().With("Uploads:DraftInteropVersions:0", "6");
        using var client = factory.CreateClient();

        using var incomplete = await client.SendAsync(Draft.Create("draft/v5.bin", [1, 2], complete: false, version: 5), TestTimeout.Token);
        using var complete = await client.SendAsync(Draft.Create("draft/v5-whole.bin", [1, 2], complete: true, version: 5), TestTimeout.Token);

        Assert.Equal("UNSUPPORTED_PROTOCOL_VERSION", (await Problems.AssertAsync(incomplete, HttpStatusCode.PreconditionFailed)).GetProperty("reason").GetString());
        Assert.Equal(HttpStatusCode.Created, complete.StatusCode);
        Assert.Equal([1, 2], File.ReadAllBytes(factory.Storage.PathOf("draft/v5-whole.bin")));
        Assert.DoesNotContain("draft/v5.bin", factory.Storage.VisibleFiles());
    }

    [Fact]
    public async Task An_Append_Of_Another_Type_From_Version_6_Is_415()
    {
        using var client = _factory.CreateClient();
        using var created = await client.SendAsync(Draft.Create("draft/type.bin", [1], complete: false), TestTimeout.Token);
        using var append = Draft.Append(new Uri(client.BaseAddress!, created.Headers.Location!), 1, [2], complete: true);
        append.Content!.Headers.ContentType = new("application/octet-stream");

        using var response = await client.SendAsync(append, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.UnsupportedMediaType);
    }

    public void Dispose() => _factory.Dispose();
}
