using System.Net;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Security;

/// <summary>Who may issue which link, and what a bad request for one gets.</summary>
public sealed class LinkIssuingTests(SecurityFactory factory) : IClassFixture<SecurityFactory>
{
    [Theory]
    [InlineData(SecurityFactory.ReadKey, "write")]
    [InlineData(SecurityFactory.WriteKey, "read")]
    [InlineData(SecurityFactory.DeleteKey, "read")]
    [InlineData(SecurityFactory.DeleteKey, "write")]
    public async Task Issuing_A_Link_Needs_The_Scope_It_Grants(string key, string access)
    {
        using var client = factory.ClientWith(key);

        using var response = await client.PostAsJsonAsync("/api/links", new { path = "a.txt", access }, TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, HttpStatusCode.Forbidden);
        Assert.Contains($"'{access}' scope", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Issuing_A_Link_Needs_A_Key()
    {
        using var response = await factory.ClientWith(null).PostAsJsonAsync("/api/links", new { path = "a.txt", access = "read" }, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.Unauthorized);
    }

    [Fact]
    public async Task A_Link_Cannot_Issue_Links()
    {
        using var client = factory.ClientWith(FileTransferFactory.TestKey);
        var link = await SignedLinkTests.IssueAsync(client, new { path = "a.txt", access = "write" });

        using var response = await factory.ClientWith(null).PostAsJsonAsync($"/api/links?sig={link.Token}", new { path = "a.txt", access = "write" }, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.Forbidden);
    }

    [Theory]
    [InlineData("""{"path":"../a.txt","access":"read"}""", "'.' or '..' segment")]
    [InlineData("""{"path":".ft-upload","access":"write"}""", "reserved")]
    [InlineData("""{"path":"a.txt","access":"delete"}""", "Access must be 'read' or 'write'.")]
    [InlineData("""{"path":"a.txt"}""", "Access")]
    [InlineData("""{"access":"read"}""", "Path")]
    [InlineData("""{"path":"a.txt","access":"read","expiresInSeconds":0}""", "ExpiresInSeconds")]
    [InlineData("""{"path":"a.txt","access":"read","expiresInSeconds":604801}""", "Auth:MaxLinkLifetime")]
    [InlineData("""{"path":"a.txt","access":"write","maxBytes":107374182401}""", "Storage:MaxFileSizeBytes")]
    [InlineData("""{"path":"a.txt","access":"write","maxBytes":-1}""", "MaxBytes")]
    [InlineData("""{"path":"a.txt","access":"read","maxBytes":10}""", "write links only")]
    [InlineData("""{"path":"a.txt","access":"write","sha256":"ABC"}""", "64 lowercase hex")]
    [InlineData("""{"path":"a.txt","access":"write","sha256":"2CF24DBA5FB0A30E26E83B2AC5B9E29E1B161E5C1FA7425E73043362938B9824"}""", "64 lowercase hex")]
    [InlineData("""{"path":"a.txt",""", "")]
    public async Task A_Bad_Link_Request_Is_400_Problem(string json, string reason)
    {
        using var client = factory.ClientWith(FileTransferFactory.TestKey);

        using var response = await client.PostAsync("/api/links", SignedLinkTests.Json(json), TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.BadRequest);
        Assert.Contains(reason, await response.Content.ReadAsStringAsync(TestTimeout.Token), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_Link_Request_That_Is_Not_Json_Is_415_Problem()
    {
        using var client = factory.ClientWith(FileTransferFactory.TestKey);

        using var response = await client.PostAsync("/api/links", new StringContent("path=a.txt"), TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.UnsupportedMediaType);
    }
}
