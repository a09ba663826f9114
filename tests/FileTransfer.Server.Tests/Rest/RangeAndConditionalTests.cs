using System.Net;
using System.Net.Http.Headers;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Rest;

public sealed class RangeAndConditionalTests(FileTransferFactory factory) : IClassFixture<FileTransferFactory>
{
    private const int Size = 100_000;

    [Theory]
    [InlineData(0L, 0L)]
    [InlineData(0L, 99_999L)]
    [InlineData(1234L, 5678L)]
    [InlineData(99_999L, 99_999L)]
    [InlineData(50_000L, null)]
    public async Task Range_Returns_206_With_Exact_Slice(long from, long? to)
    {
        var (name, source) = Create();
        using var client = factory.CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Get, $"/api/files/{name}");
        request.Headers.Range = new RangeHeaderValue(from, to);

        using var response = await client.SendAsync(request, TestTimeout.Token);

        var end = to ?? Size - 1;
        Assert.Equal(HttpStatusCode.PartialContent, response.StatusCode);
        Assert.Equal($"bytes {from}-{end}/{Size}", response.Content.Headers.ContentRange?.ToString());
        Assert.Equal(source[(int)from..(int)(end + 1)], await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
    }

    [Fact]
    public async Task Suffix_Range_Returns_The_Last_Bytes()
    {
        var (name, source) = Create();
        using var client = factory.CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Get, $"/api/files/{name}");
        request.Headers.Range = new RangeHeaderValue(null, 10);

        using var response = await client.SendAsync(request, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.PartialContent, response.StatusCode);
        Assert.Equal(source[^10..], await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
    }

    [Fact]
    public async Task Range_Starting_Past_End_Is_416_With_Size()
    {
        var (name, _) = Create();
        using var client = factory.CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Get, $"/api/files/{name}");
        request.Headers.Range = new RangeHeaderValue(Size, null);

        using var response = await client.SendAsync(request, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.RequestedRangeNotSatisfiable);
        Assert.Equal($"bytes */{Size}", response.Content.Headers.ContentRange?.ToString());
    }

    [Fact]
    public async Task If_Range_With_Current_ETag_Resumes_And_With_Old_ETag_Sends_Whole_New_File()
    {
        var (name, _) = Create();
        using var client = factory.CreateClient();
        var oldETag = (await client.SendAsync(new HttpRequestMessage(HttpMethod.Head, $"/api/files/{name}"), TestTimeout.Token)).Headers.ETag!;

        using var resumed = await client.SendAsync(RangeRequest(name, 40_000, oldETag), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.PartialContent, resumed.StatusCode);

        var replacement = factory.Storage.WriteRandom(name, Size + 1);
        File.SetLastWriteTimeUtc(factory.Storage.PathOf(name), DateTime.UtcNow.AddSeconds(5));
        using var changed = await client.SendAsync(RangeRequest(name, 40_000, oldETag), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, changed.StatusCode);
        Assert.Equal(replacement, await changed.Content.ReadAsByteArrayAsync(TestTimeout.Token));
    }

    [Fact]
    public async Task If_None_Match_With_Current_ETag_Is_304()
    {
        var (name, _) = Create();
        using var client = factory.CreateClient();
        using var first = await client.GetAsync($"/api/files/{name}", TestTimeout.Token);
        using var request = new HttpRequestMessage(HttpMethod.Get, $"/api/files/{name}");
        request.Headers.IfNoneMatch.Add(first.Headers.ETag!);

        using var response = await client.SendAsync(request, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.NotModified, response.StatusCode);
        Assert.Empty(await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
    }

    [Fact]
    public async Task If_Modified_Since_Not_Modified_Is_304_And_Older_Date_Is_200()
    {
        var (name, _) = Create();
        using var client = factory.CreateClient();
        using var first = await client.GetAsync($"/api/files/{name}", TestTimeout.Token);
        var lastModified = first.Content.Headers.LastModified!.Value;

        using var same = new HttpRequestMessage(HttpMethod.Get, $"/api/files/{name}");
        same.Headers.IfModifiedSince = lastModified;
        using var older = new HttpRequestMessage(HttpMethod.Get, $"/api/files/{name}");
        older.Headers.IfModifiedSince = lastModified.AddHours(-1);

        Assert.Equal(HttpStatusCode.NotModified, (await client.SendAsync(same, TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.SendAsync(older, TestTimeout.Token)).StatusCode);
    }

    [Fact]
    public async Task If_Match_With_Other_ETag_Is_412()
    {
        var (name, _) = Create();
        using var client = factory.CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Get, $"/api/files/{name}");
        request.Headers.IfMatch.Add(new EntityTagHeaderValue("\"not-the-etag\""));

        using var response = await client.SendAsync(request, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.PreconditionFailed);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(32_767)]
    [InlineData(32_768)]
    [InlineData(77_777)]
    [InlineData(99_999)]
    public async Task Download_Cut_At_Any_Point_Resumes_With_Range_And_If_Range_To_Exact_Bytes(int cut)
    {
        var (name, source) = Create();
        using var client = factory.CreateClient();
        using var first = await client.GetAsync($"/api/files/{name}", HttpCompletionOption.ResponseHeadersRead, TestTimeout.Token);
        var received = new byte[Size];
        await using (var body = await first.Content.ReadAsStreamAsync(TestTimeout.Token))
        {
            await body.ReadExactlyAsync(received.AsMemory(0, cut), TestTimeout.Token);
        }

        using var rest = await client.SendAsync(RangeRequest(name, cut, first.Headers.ETag!), TestTimeout.Token);
        var tail = await rest.Content.ReadAsByteArrayAsync(TestTimeout.Token);
        tail.CopyTo(received, cut);

        Assert.Equal(HttpStatusCode.PartialContent, rest.StatusCode);
        Assert.Equal(Size - cut, tail.Length);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(received));
    }

    [Theory]
    [InlineData("items=0-5")]
    [InlineData("lines=0-5")]
    [InlineData("items=100000-")]
    [InlineData("x-bytes=0-5")]
    public async Task Range_With_A_Unit_Other_Than_Bytes_Is_Ignored_And_The_Whole_File_Sent(string range)
    {
        // RFC 9110 14.2: a server MUST ignore a Range header field with a range unit it does not understand.
        var (name, source) = Create();
        using var client = factory.CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Get, $"/api/files/{name}");
        Assert.True(request.Headers.TryAddWithoutValidation("Range", range));

        using var response = await client.SendAsync(request, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Null(response.Content.Headers.ContentRange);
        Assert.Equal(source, await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
    }

    [Fact]
    public async Task Range_Unit_Is_Case_Insensitive()
    {
        // RFC 9110 14.1: range unit names are case-insensitive, so BYTES is still a byte range.
        var (name, source) = Create();
        using var client = factory.CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Get, $"/api/files/{name}");
        Assert.True(request.Headers.TryAddWithoutValidation("Range", "BYTES=10-19"));

        using var response = await client.SendAsync(request, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.PartialContent, response.StatusCode);
        Assert.Equal(source[10..20], await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
    }

    [Theory]
    [InlineData("garbage")]
    [InlineData("\"unterminated")]
    [InlineData("\"a\", \"b\"")]
    [InlineData("Sun, 99 Foo 2024 00:00:00 GMT")]
    [InlineData("W/\"weak\"")]
    public async Task If_Range_That_Is_Not_A_Valid_Validator_Sends_The_Whole_File(string ifRange)
    {
        // RFC 9110 13.1.5: a validator that is neither a strong entity tag nor an HTTP-date makes
        // the condition false, and a false condition means the Range header field is ignored.
        var (name, source) = Create();
        using var client = factory.CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Get, $"/api/files/{name}");
        request.Headers.Range = new RangeHeaderValue(0, 5);
        Assert.True(request.Headers.TryAddWithoutValidation("If-Range", ifRange));

        using var response = await client.SendAsync(request, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(source, await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
    }

    [Fact]
    public async Task If_Range_With_The_Current_Last_Modified_Date_Resumes()
    {
        var (name, source) = Create();
        using var client = factory.CreateClient();
        using var head = await client.SendAsync(new HttpRequestMessage(HttpMethod.Head, $"/api/files/{name}"), TestTimeout.Token);
        using var request = new HttpRequestMessage(HttpMethod.Get, $"/api/files/{name}");
        request.Headers.Range = new RangeHeaderValue(5, null);
        request.Headers.IfRange = new RangeConditionHeaderValue(head.Content.Headers.LastModified!.Value);

        using var response = await client.SendAsync(request, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.PartialContent, response.StatusCode);
        Assert.Equal(source[5..], await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
    }

    private static HttpRequestMessage RangeRequest(string name, long from, EntityTagHeaderValue ifRange)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, $"/api/files/{name}");
        request.Headers.Range = new RangeHeaderValue(from, null);
        request.Headers.IfRange = new RangeConditionHeaderValue(ifRange);
        return request;
    }

    private (string Name, byte[] Source) Create()
    {
        var name = $"ranges/{Guid.NewGuid():N}.bin";
        return (name, factory.Storage.WriteRandom(name, Size));
    }
}
