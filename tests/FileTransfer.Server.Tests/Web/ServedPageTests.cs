using System.Net;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Web;

namespace FileTransfer.Server.Tests.Web;

/// <summary>The page needs no build step of its own: the server serves it however it is started.</summary>
public sealed class ServedPageTests : IDisposable
{
    private readonly TempStorage _storage = new();

    [Theory]
    [InlineData(false)] // dotnet bin/.../FileTransfer.Server.dll: the copy beside the server
    [InlineData(true)] // dotnet run: the project's own wwwroot
    public async Task The_Server_Serves_The_Page_At_Its_Root(bool dotnetRun)
    {
        await using var server = await ServerProcess.StartAsync(
            new Dictionary<string, string>
            {
                ["ASPNETCORE_ENVIRONMENT"] = "Production",
                ["Storage__RootPath"] = _storage.RootPath,
                ["Auth__ApiKeys__0__Key"] = FileTransferFactory.TestKey,
                ["Auth__ApiKeys__0__Scopes__0"] = "read",
            },
            new ServerProcessOptions { DotnetRun = dotnetRun });
        using var client = new HttpClient { BaseAddress = server.Http1 };

        using var page = await client.GetAsync("/");
        Assert.Equal(HttpStatusCode.OK, page.StatusCode);
        Assert.Equal("text/html", page.Content.Headers.ContentType?.MediaType);
        Assert.Contains("<script type=\"module\" src=\"js/main.js\"></script>", await page.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(WebPageHeaders.ContentSecurityPolicy, page.Headers.GetValues("Content-Security-Policy").Single());
        using var script = await client.GetAsync("/js/tus.js");
        Assert.Equal(HttpStatusCode.OK, script.StatusCode);
        Assert.Equal("text/javascript", script.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task Favicon_Ico_Is_Served_Not_404()
    {
        using var factory = new FileTransferFactory();
        using var client = factory.CreateClient();

        using var icon = await client.GetAsync("/favicon.ico", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, icon.StatusCode);
        Assert.Equal("image/x-icon", icon.Content.Headers.ContentType?.MediaType);
        var bytes = await icon.Content.ReadAsByteArrayAsync(TestTimeout.Token);
        Assert.Equal(new byte[] { 0, 0, 1, 0 }, bytes[..4]);
    }

    public void Dispose() => _storage.Dispose();
}
