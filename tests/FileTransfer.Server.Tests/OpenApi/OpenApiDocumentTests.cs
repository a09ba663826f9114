using System.Net.Http.Headers;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.OpenApi;

/// <summary>The generated /openapi/v1.json describes every endpoint completely, and what it declares is what the server does.</summary>
public sealed class OpenApiDocumentTests : IClassFixture<FileTransferFactory>
{
    private readonly FileTransferFactory _factory;

    public OpenApiDocumentTests(FileTransferFactory factory)
    {
        _factory = factory;
    }

    [Fact]
    public async Task Every_Api_Error_Response_Is_Problem_Json_With_Its_Problem_Type()
    {
        var document = await LoadAsync();
        var errors = 0;

        foreach (var (path, method, operation) in Operations(document).Where(o => o.Path.StartsWith("/api/", StringComparison.Ordinal)))
        {
            foreach (var response in operation.GetProperty("responses").EnumerateObject().Where(r => int.Parse(r.Name) >= 400))
            {
                var content = response.Value.GetProperty("content");
                var only = Assert.Single(content.EnumerateObject());
                Assert.True(only.Name == "application/problem+json", $"{method} {path} {response.Name}: {only.Name}");
                Assert.Equal("#/components/schemas/ProblemDetails", only.Value.GetProperty("schema").GetProperty("$ref").GetString());
                Assert.Equal(int.Parse(response.Name), only.Value.GetProperty("example").GetProperty("status").GetInt32());
                // RFC 9110's (RFC 6585, 4918), or for tus's 460 Checksum Mismatch the tus protocol's.
                var type = only.Value.GetProperty("example").GetProperty("type").GetString();
                Assert.StartsWith(response.Name == "460" ? "https://tus.io/protocols/resumable-upload" : "https://tools.ietf.org/html/rfc", type, StringComparison.Ordinal);
                errors++;
            }
        }

        Assert.True(errors >= 4, $"only {errors} error responses described");
    }

    [Theory]
    [InlineData("get")]
    [InlineData("head")]
    public async Task Download_Declares_Range_And_Conditional_Headers_And_Every_Status(string method)
    {
        var operation = (await LoadAsync()).GetProperty("paths").GetProperty("/api/files/{path}").GetProperty(method);

        var headers = operation.GetProperty("parameters").EnumerateArray()
            .Where(p => p.GetProperty("in").GetString() == "header").Select(p => p.GetProperty("name").GetString());
        Assert.Equal(["If-Match", "If-Modified-Since", "If-None-Match", "If-Range", "If-Unmodified-Since", "Range"], headers.Order());
        // 307: a GET redirected to an object store; a HEAD never is.
        string[] statuses = method == "get"
            ? ["200", "206", "304", "307", "400", "401", "403", "404", "412", "416", "429"]
            : ["200", "206", "304", "400", "401", "403", "404", "412", "416", "429"];
        Assert.Equal(statuses, operation.GetProperty("responses").EnumerateObject().Select(r => r.Name).Order());
        var partial = operation.GetProperty("responses").GetProperty("206");
        Assert.True(partial.GetProperty("headers").TryGetProperty("Content-Range", out _));
        Assert.True(partial.GetProperty("headers").TryGetProperty("Repr-Digest", out _));
    }

    [Fact]
    public async Task Download_Body_Is_Binary_And_Head_Has_None()
    {
        var path = (await LoadAsync()).GetProperty("paths").GetProperty("/api/files/{path}");

        var schema = path.GetProperty("get").GetProperty("responses").GetProperty("200").GetProperty("content").GetProperty("application/octet-stream").GetProperty("schema");
        Assert.Equal("string", schema.GetProperty("type").GetString());
        Assert.Equal("binary", schema.GetProperty("format").GetString());
        Assert.False(path.GetProperty("head").GetProperty("responses").GetProperty("200").TryGetProperty("content", out _));
    }

    [Theory]
    [InlineData(null, null, 200)]
    [InlineData("bytes=0-9", null, 206)]
    [InlineData("bytes=999999-", null, 416)]
    [InlineData(null, "If-Match", 412)]
    [InlineData(null, "If-None-Match", 304)]
    [InlineData("missing", null, 404)]
    public async Task Statuses_The_Server_Answers_Are_Declared(string? range, string? condition, int expected)
    {
        _factory.Storage.WriteRandom("openapi/file.bin", 100);
        using var client = _factory.CreateClient();
        using var head = await client.SendAsync(new HttpRequestMessage(HttpMethod.Head, "/api/files/openapi/file.bin"), TestTimeout.Token);
        using var request = new HttpRequestMessage(HttpMethod.Get, range == "missing" ? "/api/files/openapi/missing.bin" : "/api/files/openapi/file.bin");
        if (range is not null and not "missing")
        {
            request.Headers.Range = RangeHeaderValue.Parse(range);
        }

        if (condition is not null)
        {
            request.Headers.TryAddWithoutValidation(condition, condition == "If-Match" ? "\"other\"" : head.Headers.ETag!.ToString());
        }

        using var response = await client.SendAsync(request, TestTimeout.Token);
        var declared = (await LoadAsync()).GetProperty("paths").GetProperty("/api/files/{path}").GetProperty("get").GetProperty("responses");

        Assert.Equal(expected, (int)response.StatusCode);
        Assert.True(declared.TryGetProperty(expected.ToString(), out var description));
        var body = await response.Content.ReadAsByteArrayAsync(TestTimeout.Token);
        var mediaType = response.Content.Headers.ContentType?.MediaType;
        if (body.Length == 0)
        {
            Assert.False(description.TryGetProperty("content", out _) && expected >= 400, $"{expected} is declared with a body but has none");
        }
        else
        {
            Assert.True(description.GetProperty("content").TryGetProperty(mediaType!, out _), $"{expected} answered {mediaType}");
        }
    }

    [Fact]
    public async Task Problems_Declare_The_Reason_With_Every_Value_The_Server_Sends()
    {
        var document = await LoadAsync();

        var reason = document.GetProperty("components").GetProperty("schemas").GetProperty("ProblemDetails").GetProperty("properties").GetProperty("reason");
        var values = reason.GetProperty("enum").EnumerateArray().Select(v => v.GetString()).ToList();
        Assert.Contains("FILE_NOT_FOUND", values);
        Assert.Contains("ETAG_MISMATCH", values);
        Assert.Equal(Enum.GetValues<FileTransfer.Core.ErrorReason>().Length, values.Distinct().Count());
    }

    [Fact]
    public async Task Health_And_Metrics_Are_Described_And_No_Framework_Types_Leak_Into_Schemas()
    {
        var document = await LoadAsync();

        Assert.True(document.GetProperty("paths").GetProperty("/healthz").GetProperty("get").GetProperty("responses").TryGetProperty("503", out _));
        Assert.True(document.GetProperty("paths").GetProperty("/metrics").GetProperty("get").GetProperty("responses").GetProperty("200").GetProperty("content").TryGetProperty("text/plain", out _));
        var schemas = document.GetProperty("components").GetProperty("schemas").EnumerateObject().Select(s => s.Name).ToList();
        Assert.Contains("ProblemDetails", schemas);
        Assert.DoesNotContain("FileStreamResult", schemas);
        Assert.DoesNotContain("EntityTagHeaderValue", schemas);
    }

    [Fact]
    public async Task Uploads_And_Delete_Declare_Binary_Bodies_Digest_Header_And_Their_Errors()
    {
        var paths = (await LoadAsync()).GetProperty("paths");

        foreach (var method in new[] { "put", "post" })
        {
            var upload = paths.GetProperty("/api/files/{path}").GetProperty(method);
            Assert.Equal("binary", upload.GetProperty("requestBody").GetProperty("content").GetProperty("application/octet-stream").GetProperty("schema").GetProperty("format").GetString());
            Assert.Contains(upload.GetProperty("parameters").EnumerateArray(), p => p.GetProperty("name").GetString() == "Content-Digest");
            var codes = upload.GetProperty("responses").EnumerateObject().Select(r => r.Name).ToList();
            Assert.Superset(new HashSet<string> { "200", "201", "400", "412", "413", "507" }, codes.ToHashSet());
        }

        var multipart = paths.GetProperty("/api/files").GetProperty("post");
        Assert.True(multipart.GetProperty("requestBody").GetProperty("content").TryGetProperty("multipart/form-data", out _));
        var delete = paths.GetProperty("/api/files/{path}").GetProperty("delete").GetProperty("responses");
        Assert.True(delete.TryGetProperty("204", out _) && delete.TryGetProperty("404", out _));
    }

    private async Task<JsonElement> LoadAsync()
    {
        using var client = _factory.CreateClient();
        var json = await client.GetStringAsync("/openapi/v1.json", TestTimeout.Token);
        return JsonDocument.Parse(json).RootElement.Clone();
    }

    private static IEnumerable<(string Path, string Method, JsonElement Operation)> Operations(JsonElement document) =>
        document.GetProperty("paths").EnumerateObject()
            .SelectMany(path => path.Value.EnumerateObject().Select(op => (path.Name, op.Name, op.Value)));
}
