using System.Net;
using System.Net.Http.Headers;
using System.Text.RegularExpressions;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Security;

/// <summary>The built server as a process: keys from environment variables, and the first-run experience (the development key).</summary>
public sealed partial class ServerProcessSecurityTests : IDisposable
{
    private const string EnvironmentKey = "key-from-the-environment-42";

    private readonly TempStorage _storage = new();
    private readonly TempStorage _data = new();

    [Fact]
    public async Task Keys_And_Scopes_From_Environment_Variables_Are_Honoured_And_Request_Logging_Shows_No_Credential()
    {
        // Request logging at Information, as an operator debugging a client turns it on.
        await using var server = await ServerProcess.StartAsync(new Dictionary<string, string>
        {
            ["Storage__RootPath"] = _storage.RootPath,
            ["Auth__ApiKeys__0__Key"] = EnvironmentKey,
            ["Auth__ApiKeys__0__Scopes__0"] = "read",
            ["Logging__LogLevel__Microsoft.AspNetCore"] = "Information",
        });
        _storage.Write("env.txt", "env"u8.ToArray());
        using var client = Client(server, EnvironmentKey);
        using var anonymous = Client(server, null);

        Assert.Equal("env", await client.GetStringAsync("/api/files/env.txt", TestTimeout.Token));
        Assert.Equal(HttpStatusCode.Unauthorized, (await anonymous.GetAsync("/api/files/env.txt", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.PostAsJsonAsync("/api/links", new { path = "env.txt", access = "read" }, TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await client.PostAsJsonAsync("/api/links", new { path = "env.txt", access = "write" }, TestTimeout.Token)).StatusCode);
        var link = await SignedLinkTests.IssueAsync(client, new { path = "env.txt", access = "read" });
        Assert.Equal("env", await anonymous.GetStringAsync(link.Url, TestTimeout.Token));

        await WaitForAsync(server, "/api/files/env.txt?sig=[redacted] - 200");
        Assert.DoesNotContain(EnvironmentKey, server.Output, StringComparison.Ordinal);
        Assert.DoesNotContain(link.Token.Split('.')[1], server.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Development_Without_Keys_Keeps_One_Key_Per_Storage_Root_Across_Restarts_And_Reads_Stay_Open()
    {
        var (first, firstLine) = await DevelopmentKeyAsync(_storage.RootPath);
        await using var server = await ServerProcess.StartAsync(Development(_storage.RootPath));
        var key = await KeyPrintedByAsync(server);
        using var otherRoot = new TempStorage();
        var (other, _) = await DevelopmentKeyAsync(otherRoot.RootPath);
        _storage.Write("dev.txt", "dev"u8.ToArray());
        using var client = Client(server, key);
        using var anonymous = Client(server, null);

        // Same root, same key; the log line says where it is kept: the user's data folder, not the root.
        Assert.Equal(first, key);
        Assert.NotEqual(first, other);
        var file = KeyFileInLine().Match(firstLine).Groups["file"].Value;
        Assert.Equal(Path.Combine(_data.RootPath, "FileTransfer", "development-keys"), Path.GetDirectoryName(file));
        Assert.Equal(first + "\n", File.ReadAllText(file));
        if (!OperatingSystem.IsWindows())
        {
            Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(file));
            Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute, File.GetUnixFileMode(Path.GetDirectoryName(file)!));
        }

        Assert.Contains("(created now;", firstLine, StringComparison.Ordinal);
        Assert.Contains("(read from an earlier run;", server.Output, StringComparison.Ordinal);
        Assert.Equal(["dev.txt"], _storage.Files());
        Assert.Equal("dev", await anonymous.GetStringAsync("/api/files/dev.txt", TestTimeout.Token));
        foreach (var access in new[] { "read", "write" })
        {
            Assert.Equal(HttpStatusCode.OK, (await client.PostAsJsonAsync("/api/links", new { path = "dev.txt", access }, TestTimeout.Token)).StatusCode);
        }

        Assert.Equal(HttpStatusCode.Unauthorized, (await anonymous.PostAsJsonAsync("/api/links", new { path = "dev.txt", access = "read" }, TestTimeout.Token)).StatusCode);
    }

    [Fact]
    public async Task Production_Without_Keys_Refuses_The_Api_Says_Why_And_Never_Reads_Or_Writes_A_Development_Key()
    {
        var (planted, _) = await DevelopmentKeyAsync(_storage.RootPath);
        var folder = Path.Combine(_data.RootPath, "FileTransfer", "development-keys");
        var before = Directory.GetFiles(folder).ToDictionary(f => f, File.ReadAllText);
        await using var server = await ServerProcess.StartAsync(new Dictionary<string, string>
        {
            ["Storage__RootPath"] = _storage.RootPath,
            ["XDG_DATA_HOME"] = _data.RootPath,
        });
        using var anonymous = Client(server, null);
        using var withPlantedKey = Client(server, planted);

        Assert.Equal(HttpStatusCode.Unauthorized, (await anonymous.GetAsync("/api/files", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await withPlantedKey.GetAsync("/api/files", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await anonymous.GetAsync("/healthz", TestTimeout.Token)).StatusCode);
        await WaitForAsync(server, "No API key is configured (Auth:ApiKeys)");
        Assert.DoesNotContain("development key", server.Output, StringComparison.Ordinal);
        Assert.Equal(before, Directory.GetFiles(folder).ToDictionary(f => f, File.ReadAllText));
    }

    // XDG_DATA_HOME moves the user's data folder, where the key is kept, into the test's own folder.
    private Dictionary<string, string> Development(string root) => new()
    {
        ["Storage__RootPath"] = root,
        ["ASPNETCORE_ENVIRONMENT"] = "Development",
        ["XDG_DATA_HOME"] = _data.RootPath,
    };

    private async Task<(string Key, string Line)> DevelopmentKeyAsync(string root)
    {
        await using var server = await ServerProcess.StartAsync(Development(root));
        var key = await KeyPrintedByAsync(server);
        return (key, server.Output.Split('\n').Single(l => l.Contains("Bearer " + key, StringComparison.Ordinal)));
    }

    private static async Task<string> KeyPrintedByAsync(ServerProcess server)
    {
        await WaitForAsync(server, "Authorization: Bearer ");
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

    [GeneratedRegex(@"stored in (?<file>\S+\.key) \(")]
    private static partial Regex KeyFileInLine();

    public void Dispose()
    {
        _storage.Dispose();
        _data.Dispose();
    }
}
