using System.Net;
using System.Net.Http.Headers;
using System.Text.RegularExpressions;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Security;

/// <summary>The built server as a process: keys from environment variables, and the first-run experience.</summary>
public sealed partial class ServerProcessSecurityTests : IDisposable
{
    private const string EnvironmentKey = "key-from-the-environment-42";

    private readonly TempStorage _storage = new();

    [Fact]
    public async Task Keys_And_Scopes_From_Environment_Variables_Are_Honoured()
    {
        await using var server = await ServerProcess.StartAsync(new Dictionary<string, string>
        {
            ["Storage__RootPath"] = _storage.RootPath,
            ["Auth__ApiKeys__0__Key"] = EnvironmentKey,
            ["Auth__ApiKeys__0__Scopes__0"] = "read",
        });
        _storage.Write("env.txt", "env"u8.ToArray());
        using var client = Client(server, EnvironmentKey);
        using var anonymous = Client(server, null);

        Assert.Equal("env", await client.GetStringAsync("/api/files/env.txt", TestTimeout.Token));
        Assert.Equal(HttpStatusCode.Unauthorized, (await anonymous.GetAsync("/api/files/env.txt", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.PostAsJsonAsync("/api/links", new { path = "env.txt", access = "read" }, TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await client.PostAsJsonAsync("/api/links", new { path = "env.txt", access = "write" }, TestTimeout.Token)).StatusCode);
        Assert.DoesNotContain(EnvironmentKey, server.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Development_Without_Keys_Prints_A_One_Time_Key_With_Every_Scope_And_Reads_Stay_Open()
    {
        var first = await DevelopmentKeyAsync();
        await using var server = await ServerProcess.StartAsync(Development());
        var key = await KeyPrintedByAsync(server);
        _storage.Write("dev.txt", "dev"u8.ToArray());
        using var client = Client(server, key);
        using var anonymous = Client(server, null);

        Assert.NotEqual(first, key);
        Assert.Equal("dev", await anonymous.GetStringAsync("/api/files/dev.txt", TestTimeout.Token));
        foreach (var access in new[] { "read", "write" })
        {
            Assert.Equal(HttpStatusCode.OK, (await client.PostAsJsonAsync("/api/links", new { path = "dev.txt", access }, TestTimeout.Token)).StatusCode);
        }

        Assert.Equal(HttpStatusCode.Unauthorized, (await anonymous.PostAsJsonAsync("/api/links", new { path = "dev.txt", access = "read" }, TestTimeout.Token)).StatusCode);
    }

    [Fact]
    public async Task Production_Without_Keys_Refuses_The_Api_And_Says_Why()
    {
        await using var server = await ServerProcess.StartAsync(new Dictionary<string, string> { ["Storage__RootPath"] = _storage.RootPath });
        using var anonymous = Client(server, null);

        Assert.Equal(HttpStatusCode.Unauthorized, (await anonymous.GetAsync("/api/files", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await anonymous.GetAsync("/healthz", TestTimeout.Token)).StatusCode);
        await WaitForAsync(server, "No API key is configured (Auth:ApiKeys)");
        Assert.DoesNotContain("generated a development key", server.Output, StringComparison.Ordinal);
    }

    private Dictionary<string, string> Development() => new()
    {
        ["Storage__RootPath"] = _storage.RootPath,
        ["ASPNETCORE_ENVIRONMENT"] = "Development",
    };

    private async Task<string> DevelopmentKeyAsync()
    {
        await using var server = await ServerProcess.StartAsync(Development());
        return await KeyPrintedByAsync(server);
    }

    private static async Task<string> KeyPrintedByAsync(ServerProcess server)
    {
        await WaitForAsync(server, "generated a development key");
        return DevelopmentKeyLine().Match(server.Output).Groups["key"].Value;
    }

    private static async Task WaitForAsync(ServerProcess server, string text)
    {
        var token = TestTimeout.Token;
        while (!server.Output.Contains(text, StringComparison.Ordinal))
        {
            await Task.Delay(50, token);
        }
    }

    private static HttpClient Client(ServerProcess server, string? key)
    {
        var client = KestrelFactory.ClientFor(server.Http1, HttpVersion.Version11);
        client.DefaultRequestHeaders.Authorization = key is null ? null : new AuthenticationHeaderValue("Bearer", key);
        return client;
    }

    [GeneratedRegex("Authorization: Bearer (?<key>[A-Za-z0-9_-]{43})")]
    private static partial Regex DevelopmentKeyLine();

    public void Dispose() => _storage.Dispose();
}
