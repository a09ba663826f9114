using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Storage.S3;

/// <summary>
/// REST end to end with <c>Storage:Backend=S3</c> on the real Ceph RGW: the same answers as on the
/// local disk, bytes proven by SHA-256, and a refused upload leaving no multipart upload behind. Files
/// of 9 MiB go up in two 8 MiB-sized parts; smaller ones in one PutObject.
/// </summary>
public sealed class S3RestTests(S3TestServer fixture) : IClassFixture<S3TestServer>
{
    private const int Multipart = (9 * 1024 * 1024) + 12_345;

    private readonly FileTransferFactory _server = fixture.Server;

    /// <summary>
    /// On S3 an ETag is a hash of the content (docs/s3.md): rewriting the same bytes keeps it (so an
    /// If-Match taken before still holds), other bytes change it. On the local disk every write gets a new one.
    /// </summary>
    [Theory]
    [InlineData(1000)]
    [InlineData(Multipart)]
    public async Task Rewriting_The_Same_Bytes_Keeps_The_ETag_And_Other_Bytes_Change_It(int size)
    {
        var name = $"etag/{size}.bin";
        var source = TestData.RandomBytes(size);
        using var client = _server.CreateClient();

        using var first = await client.PutAsync($"/api/files/{name}", new ByteArrayContent(source), TestTimeout.Token);
        using var same = new HttpRequestMessage(HttpMethod.Put, $"/api/files/{name}") { Content = new ByteArrayContent(source), Headers = { IfMatch = { first.Headers.ETag! } } };
        using var again = await client.SendAsync(same, TestTimeout.Token);
        var changed = source.ToArray();
        changed[^1] ^= 1;
        using var other = await client.PutAsync($"/api/files/{name}", new ByteArrayContent(changed), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, again.StatusCode);
        Assert.Equal(first.Headers.ETag, again.Headers.ETag);
        Assert.NotEqual(first.Headers.ETag, other.Headers.ETag);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData((256 * 1024) - 1)]
    [InlineData(256 * 1024)]
    [InlineData((256 * 1024) + 1)]
    [InlineData(Multipart)]
    public async Task Put_Then_Get_Returns_The_Exact_Bytes_With_Their_Digest(int size)
    {
        var name = $"edge/{size}.bin";
        var source = TestData.RandomBytes(size);
        using var client = _server.CreateClient();

        using var put = await client.PutAsync($"/api/files/{name}", new ByteArrayContent(source), TestTimeout.Token);
        using var get = await client.GetAsync($"/api/files/{name}", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        Assert.Equal(HttpStatusCode.OK, get.StatusCode);
        Assert.Equal(put.Headers.ETag, get.Headers.ETag);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await get.Content.ReadAsByteArrayAsync(TestTimeout.Token)));
        Assert.Equal($"sha-256=:{Convert.ToBase64String(SHA256.HashData(source))}:", get.Headers.GetValues("Repr-Digest").Single());
        Assert.Equal(0, await S3Buckets.UploadsInProgressAsync(fixture.Client, fixture.Bucket));
    }

    [Theory]
    [InlineData(0L, 0L)]
    [InlineData(8L * 1024 * 1024 - 10, 8L * 1024 * 1024 + 10)]
    [InlineData(Multipart - 1L, null)]
    public async Task A_Range_Across_Parts_Is_Exactly_Those_Bytes(long from, long? to)
    {
        var source = await PutAsync("range/file.bin", Multipart);
        using var client = _server.CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Get, "/api/files/range/file.bin") { Headers = { Range = new RangeHeaderValue(from, to) } };

        using var response = await client.SendAsync(request, TestTimeout.Token);

        var end = to ?? Multipart - 1;
        Assert.Equal(HttpStatusCode.PartialContent, response.StatusCode);
        Assert.Equal($"bytes {from}-{end}/{Multipart}", response.Content.Headers.ContentRange?.ToString());
        Assert.Equal(TempStorage.Sha256(source[(int)from..(int)(end + 1)]), TempStorage.Sha256(await response.Content.ReadAsByteArrayAsync(TestTimeout.Token)));
    }

    [Fact]
    public async Task Conditional_Gets_Answer_304_And_412_From_The_Stores_ETag()
    {
        await PutAsync("cond/get.bin", 1000);
        using var client = _server.CreateClient();
        var etag = (await client.GetAsync("/api/files/cond/get.bin", TestTimeout.Token)).Headers.ETag!;

        using var notModified = await client.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/api/files/cond/get.bin") { Headers = { IfNoneMatch = { etag } } }, TestTimeout.Token);
        using var stale = await client.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/api/files/cond/get.bin") { Headers = { IfMatch = { new EntityTagHeaderValue("\"0123\"") } } }, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.NotModified, notModified.StatusCode);
        Assert.Equal(HttpStatusCode.PreconditionFailed, stale.StatusCode);
        Assert.Matches("^\"[0-9a-f]{32}\"$", etag.Tag);
    }

    [Theory]
    [InlineData(1000)]
    [InlineData(Multipart)]
    public async Task Conditional_Puts_Create_Only_And_Replace_Only_The_Version_Held(int size)
    {
        var first = await PutAsync($"cond/{size}.bin", size);
        using var client = _server.CreateClient();
        var v1 = (await client.SendAsync(new HttpRequestMessage(HttpMethod.Head, $"/api/files/cond/{size}.bin"), TestTimeout.Token)).Headers.ETag!;
        var second = TestData.RandomBytes(size);

        using var createOnly = await client.SendAsync(Put($"cond/{size}.bin", second, r => r.Headers.IfNoneMatch.Add(EntityTagHeaderValue.Any)), TestTimeout.Token);
        using var staleMatch = await client.SendAsync(Put($"cond/{size}.bin", second, r => r.Headers.IfMatch.Add(new EntityTagHeaderValue("\"0123\""))), TestTimeout.Token);
        await AssertHoldsAsync(client, $"cond/{size}.bin", first);
        using var replace = await client.SendAsync(Put($"cond/{size}.bin", second, r => r.Headers.IfMatch.Add(v1)), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.PreconditionFailed, createOnly.StatusCode);
        Assert.Equal(HttpStatusCode.PreconditionFailed, staleMatch.StatusCode);
        Assert.Equal(HttpStatusCode.OK, replace.StatusCode);
        await AssertHoldsAsync(client, $"cond/{size}.bin", second);
        Assert.Equal(0, await S3Buckets.UploadsInProgressAsync(fixture.Client, fixture.Bucket));
    }

    [Fact]
    public async Task A_Listing_Pages_Through_The_Bucket_In_Code_Point_Order_Without_The_Servers_Own_Objects()
    {
        string[] names = ["list/b.txt", "list/a/z.txt", "list/a.txt", "list/\uFF5E", "list/\U0001F600", "list/big.bin"];
        foreach (var name in names)
        {
            await PutAsync(name, name.EndsWith("big.bin", StringComparison.Ordinal) ? Multipart : 10);
        }

        using var client = _server.CreateClient();
        var listed = new List<string>();
        for (var next = "/api/files?prefix=list/&pageSize=2"; next is not null;)
        {
            using var page = await client.GetAsync(next, TestTimeout.Token);
            Assert.Equal(HttpStatusCode.OK, page.StatusCode);
            var files = JsonDocument.Parse(await page.Content.ReadAsStringAsync(TestTimeout.Token)).RootElement;
            listed.AddRange(files.EnumerateArray().Select(f => f.GetProperty("name").GetString()!));
            next = page.Headers.TryGetValues("Link", out var link) ? link.Single().Split('>')[0].TrimStart('<') : null;
        }

        Assert.Equal(["list/a.txt", "list/a/z.txt", "list/b.txt", "list/big.bin", "list/\uFF5E", "list/\U0001F600"], listed);
        Assert.Contains(await S3Buckets.KeysAsync(fixture.Client, fixture.Bucket, ".ft-"), key => key.StartsWith(".ft-sha256/", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Delete_Honours_IfMatch_And_Removes_The_File_And_Its_Digest_Record()
    {
        await PutAsync("del/file.bin", Multipart);
        using var client = _server.CreateClient();
        var etag = (await client.SendAsync(new HttpRequestMessage(HttpMethod.Head, "/api/files/del/file.bin"), TestTimeout.Token)).Headers.ETag!;
        var records = await S3Buckets.KeysAsync(fixture.Client, fixture.Bucket, ".ft-sha256/");

        using var stale = await client.SendAsync(new HttpRequestMessage(HttpMethod.Delete, "/api/files/del/file.bin") { Headers = { IfMatch = { new EntityTagHeaderValue("\"0123\"") } } }, TestTimeout.Token);
        using var deleted = await client.SendAsync(new HttpRequestMessage(HttpMethod.Delete, "/api/files/del/file.bin") { Headers = { IfMatch = { etag } } }, TestTimeout.Token);
        using var gone = await client.GetAsync("/api/files/del/file.bin", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.PreconditionFailed, stale.StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, gone.StatusCode);
        Assert.Equal(records.Count - 1, (await S3Buckets.KeysAsync(fixture.Client, fixture.Bucket, ".ft-sha256/")).Count);
        Assert.Empty(await S3Buckets.KeysAsync(fixture.Client, fixture.Bucket, ".ft-lease/"));
    }

    [Theory]
    [InlineData("folder", "folder/inside.txt")]
    [InlineData("file.txt/below.txt", "file.txt")]
    public async Task A_Name_That_Is_A_Folder_Or_Lies_Below_A_File_Is_A_Name_Conflict_As_On_Disk(string name, string existing)
    {
        var prefix = S3Servers.NewPrefix();
        await PutAsync($"{prefix}/{existing}", 10);
        using var client = _server.CreateClient();

        using var response = await client.PutAsync($"/api/files/{prefix}/{name}", new ByteArrayContent([1]), TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, HttpStatusCode.Conflict);
        Assert.Equal("NAME_CONFLICT", problem.GetProperty("reason").GetString());
    }

    [Fact]
    public async Task An_Upload_Past_A_Signed_Links_Cap_Aborts_Its_Multipart_Upload_And_Keeps_The_Previous_Version()
    {
        var kept = await PutAsync("refused/too-big.bin", 1000);
        using var issuer = _server.CreateClient();
        var link = await Security.SignedLinkTests.IssueAsync(issuer, new { path = "refused/too-big.bin", access = "write", maxBytes = Multipart });
        using var client = _server.CreateClient();
        client.DefaultRequestHeaders.Authorization = null;

        // No Content-Length: the cap is passed only after a first part went to a multipart upload.
        using var content = new StreamContent(new UnknownLengthStream(TestData.RandomBytes(Multipart + (1024 * 1024))));
        using var response = await client.PutAsync($"/api/files/refused/too-big.bin?sig={link.Token}", content, TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, HttpStatusCode.RequestEntityTooLarge);
        Assert.Equal("FILE_TOO_LARGE", problem.GetProperty("reason").GetString());
        await AssertHoldsAsync(issuer, "refused/too-big.bin", kept);
        Assert.Equal(0, await S3Buckets.UploadsInProgressAsync(fixture.Client, fixture.Bucket));
    }

    [Fact]
    public async Task A_Digest_Mismatch_Aborts_Its_Multipart_Upload_And_Keeps_The_Previous_Version()
    {
        var kept = await PutAsync("refused/digest.bin", Multipart);
        using var client = _server.CreateClient();
        var content = new ByteArrayContent(TestData.RandomBytes(Multipart));
        content.Headers.Add("Content-Digest", $"sha-256=:{Convert.ToBase64String(new byte[32])}:");

        using var response = await client.PutAsync("/api/files/refused/digest.bin", content, TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, HttpStatusCode.BadRequest);
        Assert.Equal("DIGEST_MISMATCH", problem.GetProperty("reason").GetString());
        await AssertHoldsAsync(client, "refused/digest.bin", kept);
        Assert.Equal(0, await S3Buckets.UploadsInProgressAsync(fixture.Client, fixture.Bucket));
    }

    [Fact]
    public async Task A_Form_Of_Several_Files_Is_Stored_Whole()
    {
        var small = TestData.RandomBytes(100);
        var large = TestData.RandomBytes(Multipart);
        using var client = _server.CreateClient();
        using var form = new MultipartFormDataContent
        {
            { new ByteArrayContent(small), "file", "small.bin" },
            { new ByteArrayContent(large), "file", "large.bin" },
        };

        using var response = await client.PostAsync("/api/files?folder=form", form, TestTimeout.Token);

        Assert.True(response.IsSuccessStatusCode, $"{response.StatusCode}: {await response.Content.ReadAsStringAsync(TestTimeout.Token)}");
        await AssertHoldsAsync(client, "form/small.bin", small);
        await AssertHoldsAsync(client, "form/large.bin", large);
    }

    private async Task<byte[]> PutAsync(string name, int size)
    {
        var bytes = TestData.RandomBytes(size);
        using var client = _server.CreateClient();
        using var response = await client.PutAsync($"/api/files/{name}", new ByteArrayContent(bytes), TestTimeout.Token);
        Assert.True(response.IsSuccessStatusCode, response.StatusCode.ToString());
        return bytes;
    }

    private static HttpRequestMessage Put(string name, byte[] bytes, Action<HttpRequestMessage> conditions)
    {
        var request = new HttpRequestMessage(HttpMethod.Put, $"/api/files/{name}") { Content = new ByteArrayContent(bytes) };
        conditions(request);
        return request;
    }

    private static async Task AssertHoldsAsync(HttpClient client, string name, byte[] expected)
    {
        using var response = await client.GetAsync($"/api/files/{name}", TestTimeout.Token);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(TempStorage.Sha256(expected), TempStorage.Sha256(await response.Content.ReadAsByteArrayAsync(TestTimeout.Token)));
    }

    /// <summary>A readable stream that cannot say its length, so HttpClient sends the body chunked.</summary>
    private sealed class UnknownLengthStream(byte[] bytes) : Stream
    {
        private readonly MemoryStream _inner = new(bytes);

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position
        {
            get => throw new NotSupportedException();
            set => throw new NotSupportedException();
        }

        public override int Read(byte[] buffer, int offset, int count) => _inner.Read(buffer, offset, count);

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}
