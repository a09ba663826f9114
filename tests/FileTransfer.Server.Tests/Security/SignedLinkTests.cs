using System.Net;
using System.Text;
using System.Text.Json;
using FileTransfer.Server.Security;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Security;

/// <summary>Signed links: issued by POST api/links, used with nothing but the URL.</summary>
public sealed class SignedLinkTests(SecurityFactory factory) : IClassFixture<SecurityFactory>
{
    private const string Sha = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";

    [Fact]
    public async Task A_Read_Link_Alone_Downloads_The_File_Even_With_A_Unicode_Name()
    {
        var source = factory.Storage.WriteRandom("links/é 日本/ü.bin", 70_000);
        var link = await IssueAsync(SecurityFactory.ReadKey, new { path = "links/é 日本/ü.bin", access = "read" });
        using var anonymous = factory.ClientWith(null);

        using var response = await anonymous.GetAsync(link.Url, TestTimeout.Token);
        using var head = await anonymous.SendAsync(new HttpRequestMessage(HttpMethod.Head, link.Url), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await response.Content.ReadAsByteArrayAsync(TestTimeout.Token)));
        Assert.Equal(HttpStatusCode.OK, head.StatusCode);
        Assert.StartsWith("http://localhost/api/files/links/%C3%A9%20%E6%97%A5%E6%9C%AC/%C3%BC.bin?sig=", link.Url, StringComparison.Ordinal);
        Assert.InRange(link.ExpiresAt, DateTimeOffset.UtcNow.AddMinutes(59), DateTimeOffset.UtcNow.AddMinutes(61));
    }

    [Fact]
    public async Task A_Write_Link_Grants_Write_On_Its_File_With_The_Size_Cap_And_Digest_As_Claims()
    {
        var link = await IssueAsync(SecurityFactory.WriteKey, new { path = "up/x.bin", access = "write", maxBytes = 5, sha256 = Sha, expiresInSeconds = 60 });
        using var anonymous = factory.ClientWith(null);

        using var response = await anonymous.PutAsync($"/api/files/probe/up/x.bin?sig={link.Token}", new ByteArrayContent("hello"u8.ToArray()), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var claims = JsonDocument.Parse(await response.Content.ReadAsStringAsync(TestTimeout.Token)).RootElement.GetProperty("claims");
        Assert.Equal("write", claims.GetProperty(FileTransferClaims.Scope)[0].GetString());
        Assert.Equal("up/x.bin", claims.GetProperty(FileTransferClaims.Path)[0].GetString());
        Assert.Equal("5", claims.GetProperty(FileTransferClaims.MaxUploadBytes)[0].GetString());
        Assert.Equal(Sha, claims.GetProperty(FileTransferClaims.UploadSha256)[0].GetString());
    }

    [Fact]
    public async Task A_Write_Link_Without_A_Cap_Is_Capped_At_The_Storage_Maximum()
    {
        var link = await IssueAsync(FileTransferFactory.TestKey, new { path = "up/y.bin", access = "write" });

        Assert.Equal(100L * 1024 * 1024 * 1024, link.MaxBytes);
        Assert.Null(link.Sha256);
    }

    [Theory]
    [InlineData("read", "PUT", "/api/files/probe/f.txt", "does not grant 'write'")]
    [InlineData("read", "DELETE", "/api/files/probe/f.txt", "does not grant 'delete'")]
    [InlineData("write", "GET", "/api/files/f.txt", "does not grant 'read'")]
    [InlineData("read", "GET", "/api/files/other.txt", "for another file")]
    [InlineData("write", "PUT", "/api/files/other.txt", "for another file")]
    [InlineData("read", "GET", "/api/files", "cannot list")]
    public async Task A_Link_Used_For_Another_Method_Or_File_Is_403(string access, string method, string path, string reason)
    {
        factory.Storage.Write("f.txt", [1]);
        factory.Storage.Write("other.txt", [2]);
        var link = await IssueAsync(FileTransferFactory.TestKey, new { path = "f.txt", access });
        using var anonymous = factory.ClientWith(null);

        using var response = await anonymous.SendAsync(new HttpRequestMessage(new HttpMethod(method), $"{path}?sig={link.Token}"), TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, HttpStatusCode.Forbidden);
        Assert.Contains(reason, problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    internal static async Task<LinkResponse> IssueAsync(HttpClient client, object request)
    {
        using var response = await client.PostAsJsonAsync("/api/links", request, TestTimeout.Token);
        Assert.True(response.StatusCode == HttpStatusCode.OK, await response.Content.ReadAsStringAsync(TestTimeout.Token));
        return (await response.Content.ReadFromJsonAsync<LinkResponse>(TestTimeout.Token))!;
    }

    private async Task<LinkResponse> IssueAsync(string key, object request)
    {
        using var client = factory.ClientWith(key);
        return await IssueAsync(client, request);
    }

    internal static StringContent Json(string json) => new(json, Encoding.UTF8, "application/json");
}
