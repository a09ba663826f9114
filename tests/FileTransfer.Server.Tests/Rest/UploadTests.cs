using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Rest;

public sealed class UploadTests(FileTransferFactory factory) : IClassFixture<FileTransferFactory>
{
    private const int Chunk = 32 * 1024;

    public static TheoryData<int> EdgeSizes => [0, 1, Chunk - 1, Chunk, Chunk + 1, (3 * 1024 * 1024) + 12345];

    [Theory]
    [MemberData(nameof(EdgeSizes))]
    public async Task Put_Stores_Exact_Bytes_And_Download_Returns_Them_Whole_And_From_An_Offset(int size)
    {
        var name = $"put/{size}.bin";
        var source = TestData.RandomBytes(size);
        using var client = factory.CreateClient();

        using var put = await client.PutAsync($"/api/files/{name}", new ByteArrayContent(source), TestTimeout.Token);
        var stored = await put.Content.ReadFromJsonAsync<JsonElement>(TestTimeout.Token);
        var whole = await client.GetByteArrayAsync($"/api/files/{name}", TestTimeout.Token);
        var offset = size / 3;
        using var ranged = new HttpRequestMessage(HttpMethod.Get, $"/api/files/{name}");
        ranged.Headers.Range = new RangeHeaderValue(offset, null);
        using var tail = await client.SendAsync(ranged, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        Assert.Equal($"/api/files/{name}", put.Headers.Location?.OriginalString);
        Assert.Equal(name, stored.GetProperty("name").GetString());
        Assert.Equal(size, stored.GetProperty("size").GetInt64());
        Assert.Equal(Convert.ToHexStringLower(SHA256.HashData(source)), stored.GetProperty("sha256").GetString());
        Assert.Equal(put.Headers.ETag?.Tag, stored.GetProperty("eTag").GetString());
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(whole));
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(factory.Storage.PathOf(name) is var p ? File.ReadAllBytes(p) : []));
        if (size > 0)
        {
            Assert.Equal(source[offset..], await tail.Content.ReadAsByteArrayAsync(TestTimeout.Token));
        }
    }

    [Fact]
    public async Task Post_With_Raw_Body_Stores_Like_Put()
    {
        var source = TestData.RandomBytes(70_000);
        using var client = factory.CreateClient();

        using var post = await client.PostAsync("/api/files/post/raw.bin", new ByteArrayContent(source), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, post.StatusCode);
        Assert.Equal(source, await client.GetByteArrayAsync("/api/files/post/raw.bin", TestTimeout.Token));
    }

    [Fact]
    public async Task Replacing_Answers_200_With_A_New_ETag_And_The_New_Bytes()
    {
        using var client = factory.CreateClient();
        using var first = await client.PutAsync("/api/files/replace/f.bin", new ByteArrayContent(TestData.RandomBytes(100)), TestTimeout.Token);
        var second = TestData.RandomBytes(100);

        using var replaced = await client.PutAsync("/api/files/replace/f.bin", new ByteArrayContent(second), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, replaced.StatusCode);
        Assert.NotEqual(first.Headers.ETag, replaced.Headers.ETag);
        Assert.Equal(second, await client.GetByteArrayAsync("/api/files/replace/f.bin", TestTimeout.Token));
    }

    [Fact]
    public async Task Download_Carries_Repr_Digest_Of_The_Whole_File_Also_On_206()
    {
        var source = TestData.RandomBytes(50_000);
        using var client = factory.CreateClient();
        await client.PutAsync("/api/files/digest/d.bin", new ByteArrayContent(source), TestTimeout.Token);
        using var ranged = new HttpRequestMessage(HttpMethod.Get, "/api/files/digest/d.bin");
        ranged.Headers.Range = new RangeHeaderValue(10, 20);

        using var whole = await client.GetAsync("/api/files/digest/d.bin", TestTimeout.Token);
        using var partial = await client.SendAsync(ranged, TestTimeout.Token);

        var expected = $"sha-256=:{Convert.ToBase64String(SHA256.HashData(source))}:";
        Assert.Equal(expected, Assert.Single(whole.Headers.GetValues("Repr-Digest")));
        Assert.Equal(HttpStatusCode.PartialContent, partial.StatusCode);
        Assert.Equal(expected, Assert.Single(partial.Headers.GetValues("Repr-Digest")));
    }

    [Fact]
    public async Task Content_Digest_That_Matches_Is_Stored()
    {
        var source = TestData.RandomBytes(10_000);
        using var client = factory.CreateClient();

        using var response = await client.SendAsync(Put("digest/ok.bin", source, ("Content-Digest", $"sha-256=:{Convert.ToBase64String(SHA256.HashData(source))}:")), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }

    [Theory]
    [InlineData("sha-256=:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=:", HttpStatusCode.BadRequest)]
    [InlineData("sha-256=notbase64", HttpStatusCode.BadRequest)]
    [InlineData("sha-256=:c2hvcnQ=:", HttpStatusCode.BadRequest)]
    [InlineData("sha-512=:AAAA:", HttpStatusCode.BadRequest)]
    public async Task Bad_Or_Mismatched_Content_Digest_Is_Refused_And_Nothing_Is_Stored(string digest, HttpStatusCode status)
    {
        using var isolated = new FileTransferFactory();
        isolated.Storage.Write("keep/existing.bin", [1, 2, 3]);
        using var client = isolated.CreateClient();

        using var response = await client.SendAsync(Put("keep/existing.bin", TestData.RandomBytes(5000), ("Content-Digest", digest)), TestTimeout.Token);

        await Problems.AssertAsync(response, status);
        Assert.Equal(["keep/existing.bin"], isolated.Storage.Files().Where(f => !f.StartsWith(".ft-meta/", StringComparison.Ordinal)));
        Assert.Equal([1, 2, 3], File.ReadAllBytes(isolated.Storage.PathOf("keep/existing.bin")));
    }

    [Fact]
    public async Task If_None_Match_Star_Refuses_To_Replace_With_412()
    {
        using var client = factory.CreateClient();
        await client.PutAsync("/api/files/inm/f.bin", new ByteArrayContent([9]), TestTimeout.Token);

        using var response = await client.SendAsync(Put("inm/f.bin", [1, 2], ("If-None-Match", "*")), TestTimeout.Token);
        using var created = await client.SendAsync(Put("inm/new.bin", [1, 2], ("If-None-Match", "*")), TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.PreconditionFailed);
        Assert.Equal([9], await client.GetByteArrayAsync("/api/files/inm/f.bin", TestTimeout.Token));
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
    }

    [Fact]
    public async Task If_Match_Replaces_Only_The_Version_Held()
    {
        using var client = factory.CreateClient();
        using var v1 = await client.PutAsync("/api/files/im/f.bin", new ByteArrayContent([1]), TestTimeout.Token);
        using var v2 = await client.SendAsync(Put("im/f.bin", [2], ("If-Match", v1.Headers.ETag!.Tag)), TestTimeout.Token);

        using var stale = await client.SendAsync(Put("im/f.bin", [3], ("If-Match", v1.Headers.ETag!.Tag)), TestTimeout.Token);
        using var missing = await client.SendAsync(Put("im/none.bin", [3], ("If-Match", "*")), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, v2.StatusCode);
        await Problems.AssertAsync(stale, HttpStatusCode.PreconditionFailed);
        await Problems.AssertAsync(missing, HttpStatusCode.PreconditionFailed);
        Assert.Equal([2], await client.GetByteArrayAsync("/api/files/im/f.bin", TestTimeout.Token));
    }

    [Fact]
    public async Task Upload_Onto_A_Folder_Or_Through_A_File_Is_409()
    {
        using var client = factory.CreateClient();
        await client.PutAsync("/api/files/conflict/dir/inner.bin", new ByteArrayContent([1]), TestTimeout.Token);

        using var ontoFolder = await client.PutAsync("/api/files/conflict/dir", new ByteArrayContent([2]), TestTimeout.Token);
        using var throughFile = await client.PutAsync("/api/files/conflict/dir/inner.bin/x", new ByteArrayContent([2]), TestTimeout.Token);

        await Problems.AssertAsync(ontoFolder, HttpStatusCode.Conflict);
        await Problems.AssertAsync(throughFile, HttpStatusCode.Conflict);
    }

    [Fact]
    public async Task Delete_Removes_The_File_And_Its_Digest_Then_404()
    {
        using var client = factory.CreateClient();
        await client.PutAsync("/api/files/del/f.bin", new ByteArrayContent([1]), TestTimeout.Token);
        var sidecar = factory.Storage.PathOf(".ft-meta/sha256/" + FileTransfer.Storage.Local.DigestSidecars.SidecarKey("del/f.bin"));
        Assert.True(File.Exists(sidecar));

        using var deleted = await client.DeleteAsync("/api/files/del/f.bin", TestTimeout.Token);
        using var again = await client.DeleteAsync("/api/files/del/f.bin", TestTimeout.Token);
        using var get = await client.GetAsync("/api/files/del/f.bin", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        await Problems.AssertAsync(again, HttpStatusCode.NotFound);
        await Problems.AssertAsync(get, HttpStatusCode.NotFound);
        Assert.False(File.Exists(sidecar));
    }

    [Fact]
    public async Task Delete_With_Stale_If_Match_Is_412_And_Keeps_The_File()
    {
        using var client = factory.CreateClient();
        await client.PutAsync("/api/files/del/keep.bin", new ByteArrayContent([1]), TestTimeout.Token);
        using var request = new HttpRequestMessage(HttpMethod.Delete, "/api/files/del/keep.bin");
        request.Headers.IfMatch.Add(new EntityTagHeaderValue("\"other\""));

        using var response = await client.SendAsync(request, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.PreconditionFailed);
        Assert.True(File.Exists(factory.Storage.PathOf("del/keep.bin")));
    }

    [Theory]
    [InlineData("not-an-etag")]
    [InlineData("\"unterminated")]
    [InlineData("$ETAG")]
    public async Task A_Malformed_If_Match_Is_412_And_Neither_Replaces_Nor_Deletes(string ifMatch)
    {
        using var client = factory.CreateClient();
        await client.PutAsync("/api/files/badim/f.bin", new ByteArrayContent([1]), TestTimeout.Token);
        using var delete = new HttpRequestMessage(HttpMethod.Delete, "/api/files/badim/f.bin");
        delete.Headers.TryAddWithoutValidation("If-Match", ifMatch);

        using var put = await client.SendAsync(Put("badim/f.bin", [2], ("If-Match", ifMatch)), TestTimeout.Token);
        using var deleted = await client.SendAsync(delete, TestTimeout.Token);

        await Problems.AssertAsync(put, HttpStatusCode.PreconditionFailed);
        await Problems.AssertAsync(deleted, HttpStatusCode.PreconditionFailed);
        Assert.Equal([1], await File.ReadAllBytesAsync(factory.Storage.PathOf("badim/f.bin"), TestTimeout.Token));
    }

    internal static HttpRequestMessage Put(string name, byte[] body, params (string Name, string Value)[] headers)
    {
        var request = new HttpRequestMessage(HttpMethod.Put, $"/api/files/{name}") { Content = new ByteArrayContent(body) };
        foreach (var (header, value) in headers)
        {
            request.Headers.TryAddWithoutValidation(header, value);
        }

        return request;
    }
}
