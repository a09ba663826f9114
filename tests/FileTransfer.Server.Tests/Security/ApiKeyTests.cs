using System.Net;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Security;

/// <summary>API keys: where they are accepted, what an absent or wrong key gets, what stays public.</summary>
public sealed class ApiKeyTests(SecurityFactory factory) : IClassFixture<SecurityFactory>
{
    [Theory]
    [InlineData("/api/files")]
    [InlineData("/api/files/a.txt")]
    public async Task No_Key_Is_401_Problem_With_A_Bearer_Challenge(string path)
    {
        factory.Storage.Write("a.txt", [1]);
        using var client = factory.ClientWith(null);

        using var response = await client.GetAsync(path, TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, HttpStatusCode.Unauthorized);
        Assert.Equal("Bearer realm=\"FileTransfer\"", response.Headers.WwwAuthenticate.ToString());
        Assert.Contains("Authorization: Bearer", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Unknown_Key_Is_401_Invalid_Token(bool asApiKeyHeader)
    {
        using var client = factory.ClientWith("not-a-configured-key-0000", asApiKeyHeader);

        using var response = await client.GetAsync("/api/files", TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.Unauthorized);
        Assert.Contains("error=\"invalid_token\"", response.Headers.WwwAuthenticate.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(SecurityFactory.ReadKey + "x")]
    [InlineData("read-only-key-012345678")]
    [InlineData("READ-ONLY-KEY-0123456789")]
    [InlineData(" ")]
    public async Task Near_Misses_Of_A_Key_Are_Refused(string key)
    {
        using var client = factory.ClientWith(null);
        client.DefaultRequestHeaders.Add("X-Api-Key", key);

        using var response = await client.GetAsync("/api/files", TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.Unauthorized);
    }

    [Theory]
    [InlineData("Bearer")]
    [InlineData("bearer")]
    [InlineData("BEARER")]
    public async Task Key_Is_Accepted_As_Bearer_In_Any_Case_And_As_X_Api_Key(string scheme)
    {
        using var bearer = factory.ClientWith(null);
        bearer.DefaultRequestHeaders.TryAddWithoutValidation("Authorization", $"{scheme} {SecurityFactory.ReadKey}");
        using var apiKey = factory.ClientWith(SecurityFactory.ReadKey, asApiKeyHeader: true);

        Assert.Equal(HttpStatusCode.OK, (await bearer.GetAsync("/api/files", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await apiKey.GetAsync("/api/files", TestTimeout.Token)).StatusCode);
    }

    [Fact]
    public async Task Two_Different_Keys_In_One_Request_Are_401()
    {
        using var client = factory.ClientWith(SecurityFactory.ReadKey);
        client.DefaultRequestHeaders.Add("X-Api-Key", FileTransferFactory.TestKey);

        using var response = await client.GetAsync("/api/files", TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.Unauthorized);
    }

    [Theory]
    [InlineData("/healthz")]
    [InlineData("/openapi/v1.json")]
    [InlineData("/swagger/index.html")]
    public async Task Health_OpenApi_And_Swagger_Stay_Anonymous(string path)
    {
        using var client = factory.ClientWith(null);

        using var response = await client.GetAsync(path, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    [Fact]
    public async Task OpenApi_Declares_Bearer_Api_Key_And_Signed_Link_Schemes()
    {
        using var client = factory.ClientWith(null);

        using var document = JsonDocument.Parse(await client.GetStringAsync("/openapi/v1.json", TestTimeout.Token));

        var schemes = document.RootElement.GetProperty("components").GetProperty("securitySchemes");
        Assert.Equal("bearer", schemes.GetProperty("Bearer").GetProperty("scheme").GetString());
        Assert.Equal("X-Api-Key", schemes.GetProperty("ApiKey").GetProperty("name").GetString());
        Assert.Equal("query", schemes.GetProperty("SignedLink").GetProperty("in").GetString());
        Assert.Equal(3, document.RootElement.GetProperty("paths").GetProperty("/api/files/{path}").GetProperty("get").GetProperty("security").GetArrayLength());
        Assert.True(document.RootElement.GetProperty("paths").TryGetProperty("/api/links", out _));
    }

    [Fact]
    public async Task A_Key_Carries_Its_Scopes_And_A_Key_Id_But_Never_The_Key()
    {
        using var client = factory.ClientWith(SecurityFactory.WriteKey);

        using var response = await client.PutAsync("/api/files/probe/x.bin", new ByteArrayContent([1]), TestTimeout.Token);
        var body = await response.Content.ReadAsStringAsync(TestTimeout.Token);

        using var document = JsonDocument.Parse(body);
        var claims = document.RootElement.GetProperty("claims");
        Assert.Equal(["write"], claims.GetProperty("ft:scope").EnumerateArray().Select(e => e.GetString()));
        Assert.Equal(12, claims.GetProperty("ft:key_id")[0].GetString()!.Length);
        Assert.DoesNotContain(SecurityFactory.WriteKey, body, StringComparison.Ordinal);
    }
}
