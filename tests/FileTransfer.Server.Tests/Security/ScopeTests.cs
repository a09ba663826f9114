using System.Net;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// One table (the core's) maps each declared operation to a scope: reads and listings read, writes
/// write, deletes delete; an action under api/files that declares none needs every scope. It applies
/// to the probe endpoints, which declare operations but no authorization at all.
/// </summary>
public sealed class ScopeTests(SecurityFactory factory) : IClassFixture<SecurityFactory>
{
    [Theory]
    [InlineData(SecurityFactory.ReadKey, "GET", "/api/files/scoped.txt", HttpStatusCode.OK)]
    [InlineData(SecurityFactory.ReadKey, "HEAD", "/api/files/scoped.txt", HttpStatusCode.OK)]
    [InlineData(SecurityFactory.ReadKey, "GET", "/api/files", HttpStatusCode.OK)]
    [InlineData(SecurityFactory.ReadKey, "PUT", "/api/files/probe/x", HttpStatusCode.Forbidden)]
    [InlineData(SecurityFactory.ReadKey, "POST", "/api/files/probe/x", HttpStatusCode.Forbidden)]
    [InlineData(SecurityFactory.ReadKey, "DELETE", "/api/files/probe/x", HttpStatusCode.Forbidden)]
    [InlineData(SecurityFactory.WriteKey, "PUT", "/api/files/probe/x", HttpStatusCode.OK)]
    [InlineData(SecurityFactory.WriteKey, "POST", "/api/files/probe/x", HttpStatusCode.OK)]
    [InlineData(SecurityFactory.WriteKey, "GET", "/api/files/scoped.txt", HttpStatusCode.Forbidden)]
    [InlineData(SecurityFactory.WriteKey, "HEAD", "/api/files/scoped.txt", HttpStatusCode.Forbidden)]
    [InlineData(SecurityFactory.WriteKey, "DELETE", "/api/files/probe/x", HttpStatusCode.Forbidden)]
    [InlineData(SecurityFactory.DeleteKey, "DELETE", "/api/files/probe/x", HttpStatusCode.OK)]
    [InlineData(SecurityFactory.DeleteKey, "GET", "/api/files", HttpStatusCode.Forbidden)]
    [InlineData(SecurityFactory.DeleteKey, "PUT", "/api/files/probe/x", HttpStatusCode.Forbidden)]
    [InlineData(FileTransferFactory.TestKey, "DELETE", "/api/files/probe/x", HttpStatusCode.OK)]
    [InlineData(FileTransferFactory.TestKey, "PUT", "/api/files/probe/x", HttpStatusCode.OK)]
    public async Task The_Operation_Decides_The_Scope(string key, string method, string path, HttpStatusCode expected)
    {
        factory.Storage.Write("scoped.txt", [1, 2, 3]);
        using var client = factory.ClientWith(key);

        using var response = await client.SendAsync(new HttpRequestMessage(new HttpMethod(method), path), TestTimeout.Token);

        if (expected == HttpStatusCode.OK)
        {
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            return;
        }

        var problem = await Problems.AssertAsync(response, expected);
        Assert.Contains($"'{(method is "GET" or "HEAD" ? "read" : method == "DELETE" ? "delete" : "write")}' scope", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("GET")]
    [InlineData("PATCH")]
    [InlineData("OPTIONS")]
    public async Task An_Action_Open_To_Every_Method_Needs_Every_Scope(string method)
    {
        using var readOnly = factory.ClientWith(SecurityFactory.ReadKey);
        using var everything = factory.ClientWith(FileTransferFactory.TestKey);

        using var refused = await readOnly.SendAsync(new HttpRequestMessage(new HttpMethod(method), "/api/files/probe-any-method/x"), TestTimeout.Token);
        using var allowed = await everything.SendAsync(new HttpRequestMessage(new HttpMethod(method), "/api/files/probe-any-method/x"), TestTimeout.Token);

        await Problems.AssertAsync(refused, HttpStatusCode.Forbidden);
        Assert.Equal(HttpStatusCode.OK, allowed.StatusCode);
    }

    [Fact]
    public async Task Anonymous_Reads_When_Allowed_Still_Need_A_Key_To_Write_A_Wrong_Key_Is_401_And_A_Key_Without_Read_Is_403()
    {
        using var open = new SecurityFactory();
        open.With("Auth:AllowAnonymousRead", "true").Storage.Write("public.txt", [7]);
        using var anonymous = open.ClientWith(null);
        using var wrongKey = open.ClientWith("wrong-key-0000000000000");
        using var writeOnly = open.ClientWith(SecurityFactory.WriteKey);

        Assert.Equal(HttpStatusCode.OK, (await anonymous.GetAsync("/api/files/public.txt", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await anonymous.GetAsync("/api/files", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await anonymous.SendAsync(new HttpRequestMessage(HttpMethod.Head, "/api/files/public.txt"), TestTimeout.Token)).StatusCode);
        await Problems.AssertAsync(await writeOnly.GetAsync("/api/files/public.txt", TestTimeout.Token), HttpStatusCode.Forbidden);
        await Problems.AssertAsync(await anonymous.PutAsync("/api/files/probe/x", new ByteArrayContent([1]), TestTimeout.Token), HttpStatusCode.Unauthorized);
        await Problems.AssertAsync(await anonymous.DeleteAsync("/api/files/probe/x", TestTimeout.Token), HttpStatusCode.Unauthorized);
        await Problems.AssertAsync(await wrongKey.GetAsync("/api/files/public.txt", TestTimeout.Token), HttpStatusCode.Unauthorized);
    }

    [Fact]
    public async Task Anonymous_Reads_Are_Off_By_Default()
    {
        using var anonymous = factory.ClientWith(null);

        using var response = await anonymous.GetAsync("/api/files", TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.Unauthorized);
    }

    [Theory]
    [InlineData("Auth:ApiKeys:0:Key", "short", "Auth:ApiKeys:0:Key must be at least 16 characters")]
    [InlineData("Auth:ApiKeys:0:Scopes:0", "admin", "Auth:ApiKeys:0:Scopes contains 'admin'")]
    [InlineData("Auth:ApiKeys:1:Key", FileTransferFactory.TestKey, "lists the same key twice")]
    [InlineData("Auth:ApiKeys:0:Name", "has space", "Auth:ApiKeys:0:Name ('has space') must be")]
    [InlineData("Auth:SigningKey", "too-short", "SigningKey")]
    [InlineData("Auth:MaxLinkLifetime", "00:00:00", "MaxLinkLifetime")]
    public void Invalid_Auth_Settings_Stop_The_Server_At_Start(string key, string value, string message)
    {
        using var invalid = new SecurityFactory().With(key, value);

        var error = Assert.ThrowsAny<Exception>(() => invalid.CreateClient());

        Assert.Contains(message, error.ToString(), StringComparison.Ordinal);
    }
}
