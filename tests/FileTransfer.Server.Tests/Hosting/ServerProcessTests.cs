using System.Net;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>The built server as its own process, configured the way an operator does it.</summary>
public sealed class ServerProcessTests
{
    [Fact]
    public async Task Environment_Variables_Override_Endpoints_And_Storage_Root_Which_Is_Created()
    {
        using var storage = new TempStorage();
        var root = Path.Combine(storage.RootPath, "created", "at-start");
        await using var server = await ServerProcess.StartAsync(new Dictionary<string, string>
        {
            ["Storage__RootPath"] = root,
            ["Auth__ApiKeys__0__Key"] = FileTransferFactory.TestKey,
            ["Auth__ApiKeys__0__Scopes__0"] = "read",
        });
        await File.WriteAllTextAsync(Path.Combine(root, "hello.txt"), "hello", TestTimeout.Token);
        using var http1 = KestrelFactory.ClientFor(server.Http1, HttpVersion.Version11);
        using var http2 = KestrelFactory.ClientFor(server.Http2, HttpVersion.Version20);

        Assert.Equal("Healthy", await http1.GetStringAsync("/healthz", TestTimeout.Token));
        Assert.Equal("hello", await http1.GetStringAsync("/api/files/hello.txt", TestTimeout.Token));
        Assert.Equal("hello", await http2.GetStringAsync("/api/files/hello.txt", TestTimeout.Token));
        Assert.Contains($"Storage root: {root}", server.Output, StringComparison.Ordinal);
    }
}
