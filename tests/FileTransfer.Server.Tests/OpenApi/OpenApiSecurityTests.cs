using System.Net;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Security;

namespace FileTransfer.Server.Tests.OpenApi;

/// <summary>
/// Security in the generated document: public operations carry no requirement (no lock in Swagger
/// UI), protected ones say per operation which credentials with which scope grant them, and declare
/// the 401, 403 and 429 the server really answers them with, headers included.
/// </summary>
public sealed class OpenApiSecurityTests(SecurityFactory factory) : IClassFixture<SecurityFactory>
{
    public static TheoryData<string, string, string, string[]> Protected => new()
    {
        { "/api/files", "get", "read", ["Bearer", "ApiKey"] },
        { "/api/files", "post", "write", ["Bearer", "ApiKey"] },
        { "/api/files/{path}", "get", "read", ["Bearer", "ApiKey", "SignedLink"] },
        { "/api/files/{path}", "head", "read", ["Bearer", "ApiKey", "SignedLink"] },
        { "/api/files/{path}", "put", "write", ["Bearer", "ApiKey", "SignedLink"] },
        { "/api/files/{path}", "post", "write", ["Bearer", "ApiKey", "SignedLink"] },
        { "/api/files/{path}", "delete", "delete", ["Bearer", "ApiKey"] },
        { "/api/links", "post", "", ["Bearer", "ApiKey"] },
        { "/api/usage", "get", "read", ["Bearer", "ApiKey"] },
    };

    [Theory]
    [InlineData("/healthz")]
    [InlineData("/metrics")]
    [InlineData("/openapi/v1.json")]
    public async Task Public_Operations_Carry_No_Security_Requirement(string path)
    {
        var document = await LoadAsync(factory);

        var operation = document.GetProperty("paths").GetProperty(path).GetProperty("get");

        Assert.False(document.TryGetProperty("security", out _), "a document-wide requirement puts a lock on every operation");
        Assert.False(operation.TryGetProperty("security", out _));
        Assert.DoesNotContain(operation.GetProperty("responses").EnumerateObject(), r => r.Name is "401" or "403" or "429");
    }

    [Theory]
    [MemberData(nameof(Protected))]
    public async Task Protected_Operations_Declare_The_Credentials_That_Grant_Them_With_Their_Scope(string path, string method, string scope, string[] schemes)
    {
        var operation = (await LoadAsync(factory)).GetProperty("paths").GetProperty(path).GetProperty(method);

        var alternatives = operation.GetProperty("security").EnumerateArray().Select(r => Assert.Single(r.EnumerateObject())).ToList();

        Assert.Equal(schemes, alternatives.Select(a => a.Name));
        Assert.All(alternatives, a => Assert.Equal(scope == "" ? [] : [scope], a.Value.EnumerateArray().Select(s => s.GetString())));
    }

    [Theory]
    [MemberData(nameof(Protected))]
    public async Task Protected_Operations_Declare_401_With_WWW_Authenticate_403_And_429_With_Retry_After(string path, string method, string scope, string[] schemes)
    {
        _ = (scope, schemes);
        var responses = (await LoadAsync(factory)).GetProperty("paths").GetProperty(path).GetProperty(method).GetProperty("responses");

        Assert.True(responses.GetProperty("401").GetProperty("headers").TryGetProperty("WWW-Authenticate", out _));
        Assert.True(responses.TryGetProperty("403", out _));
        Assert.True(responses.GetProperty("429").GetProperty("headers").TryGetProperty("Retry-After", out _));
        foreach (var status in new[] { "401", "403", "429" })
        {
            Assert.Equal(int.Parse(status), responses.GetProperty(status).GetProperty("content").GetProperty("application/problem+json").GetProperty("example").GetProperty("status").GetInt32());
        }
    }

    [Fact]
    public async Task With_Anonymous_Reads_Only_Read_Operations_Also_Accept_No_Credential()
    {
        using var open = new SecurityFactory();
        open.With("Auth:AllowAnonymousRead", "true");

        var paths = (await LoadAsync(open)).GetProperty("paths");

        Assert.Contains(paths.GetProperty("/api/files").GetProperty("get").GetProperty("security").EnumerateArray(), r => !r.EnumerateObject().Any());
        Assert.Contains(paths.GetProperty("/api/files/{path}").GetProperty("head").GetProperty("security").EnumerateArray(), r => !r.EnumerateObject().Any());
        Assert.DoesNotContain(paths.GetProperty("/api/files/{path}").GetProperty("put").GetProperty("security").EnumerateArray(), r => !r.EnumerateObject().Any());
        Assert.DoesNotContain((await LoadAsync(factory)).GetProperty("paths").GetProperty("/api/files").GetProperty("get").GetProperty("security").EnumerateArray(), r => !r.EnumerateObject().Any());
    }

    [Fact]
    public async Task Without_Rate_Limits_No_Operation_Declares_429()
    {
        using var unlimited = new SecurityFactory();
        unlimited.With("RateLimit:Enabled", "false");

        var document = await LoadAsync(unlimited);

        Assert.DoesNotContain(Operations(document), o => o.Operation.GetProperty("responses").TryGetProperty("429", out _));
    }

    /// <summary>What the server answers is what the document declares: status, problem type, headers.</summary>
    [Fact]
    public async Task The_Declared_401_403_And_429_Are_What_The_Server_Answers()
    {
        using var limited = new SecurityFactory();
        limited.With("RateLimit:PermitsPerSecond", "1").With("RateLimit:Burst", "1").Storage.Write("f.txt", [1]);
        var declared = (await LoadAsync(limited)).GetProperty("paths").GetProperty("/api/files/{path}").GetProperty("put").GetProperty("responses");
        using var nobody = limited.ClientWith(null);
        using var reader = limited.ClientWith(SecurityFactory.ReadKey);

        using var unauthorized = await nobody.PutAsync("/api/files/x.bin", new ByteArrayContent([1]), TestTimeout.Token);
        using var forbidden = await reader.PutAsync("/api/files/x.bin", new ByteArrayContent([1]), TestTimeout.Token);
        HttpResponseMessage tooMany;
        do
        {
            tooMany = await reader.PutAsync("/api/files/x.bin", new ByteArrayContent([1]), TestTimeout.Token);
        }
        while (tooMany.StatusCode == HttpStatusCode.Forbidden);

        foreach (var (response, status, header) in new[] { (unauthorized, 401, "WWW-Authenticate"), (forbidden, 403, null), (tooMany, 429, "Retry-After") })
        {
            var problem = await Problems.AssertAsync(response, (HttpStatusCode)status);
            var example = declared.GetProperty(status.ToString()).GetProperty("content").GetProperty("application/problem+json").GetProperty("example");
            Assert.Equal(example.GetProperty("type").GetString(), problem.GetProperty("type").GetString());
            if (header is not null)
            {
                Assert.True(response.Headers.Contains(header), $"{status} without {header}");
                Assert.True(declared.GetProperty(status.ToString()).GetProperty("headers").TryGetProperty(header, out _));
            }
        }

        tooMany.Dispose();
    }

    private static async Task<JsonElement> LoadAsync(FileTransferFactory server)
    {
        using var client = server.CreateClient();
        return JsonDocument.Parse(await client.GetStringAsync("/openapi/v1.json", TestTimeout.Token)).RootElement.Clone();
    }

    private static IEnumerable<(string Path, string Method, JsonElement Operation)> Operations(JsonElement document) =>
        document.GetProperty("paths").EnumerateObject()
            .SelectMany(path => path.Value.EnumerateObject().Select(op => (path.Name, op.Name, op.Value)));
}
