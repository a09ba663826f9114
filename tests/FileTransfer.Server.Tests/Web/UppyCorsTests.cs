using System.Diagnostics;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.OpenApi;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.FileProviders;

namespace FileTransfer.Server.Tests.Web;

/// <summary>
/// Uppy (<c>@uppy/core</c> 6.3.1 with <c>@uppy/tus</c> 6.0.0, from npm, bundled by esbuild) in
/// headless Chromium on a page of another origin, uploading to the server's tus endpoint: it works
/// once that origin is in <c>Cors:AllowedOrigins</c> (the stored file has the page's SHA-256), and
/// the browser refuses it ("blocked by CORS policy") when the origin is not.
/// </summary>
[Collection(BrowserCollection.Name)]
public sealed class UppyCorsTests(BrowserFixture browser) : IAsyncLifetime
{
    private static readonly string NodeFolder = Path.Combine(RepositoryPaths.Root, "tests", "interop", "node");

    private readonly string _site = Directory.CreateTempSubdirectory("ft-uppy-").FullName;
    private WebApplication? _pageHost;

    private Uri PageOrigin => new(_pageHost!.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First(address => address.StartsWith("http://127.0.0.1:", StringComparison.Ordinal)));

    public async Task InitializeAsync()
    {
        if (FactWhenChromiumAttribute.Chromium is null)
        {
            return;
        }

        await BundleUppyAsync(Path.Combine(_site, "uppy.js"));
        await File.WriteAllTextAsync(Path.Combine(_site, "index.html"), Page, TestTimeout.Token);

        // The page's own origin: another port than the file server's (an origin is scheme, host and port).
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(System.Net.IPAddress.Loopback, 0));
        _pageHost = builder.Build();
        _pageHost.UseDefaultFiles(new DefaultFilesOptions { FileProvider = new PhysicalFileProvider(_site) });
        _pageHost.UseStaticFiles(new StaticFileOptions { FileProvider = new PhysicalFileProvider(_site) });
        await _pageHost.StartAsync(TestTimeout.Token);
    }

    [FactWhenChromium]
    public async Task Uppy_On_An_Allowed_Origin_Uploads_Through_Tus_With_Every_Byte()
    {
        using var server = new KestrelFactory();
        server.With("Cors:AllowedOrigins:0", PageOrigin.GetLeftPart(UriPartial.Authority));

        var result = await UploadWithUppyAsync(server);

        Assert.Equal("success", result);
        Assert.Equal(Expected(), TempStorage.Sha256(await File.ReadAllBytesAsync(server.Storage.PathOf("uppy/from-browser.bin"), TestTimeout.Token)));
    }

    [FactWhenChromium]
    public async Task Uppy_On_An_Origin_That_Is_Not_Allowed_Is_Refused_By_The_Browser()
    {
        using var server = new KestrelFactory();
        server.With("Cors:AllowedOrigins:0", "https://somewhere-else.example.com");

        var result = await UploadWithUppyAsync(server);

        Assert.StartsWith("error", result, StringComparison.Ordinal);
        Assert.DoesNotContain("uppy/from-browser.bin", server.Storage.VisibleFiles());
    }

    public async Task DisposeAsync()
    {
        if (_pageHost is not null)
        {
            await _pageHost.DisposeAsync();
        }

        Directory.Delete(_site, recursive: true);
    }

    // 300,000 bytes in 64 KiB chunks: creation, five PATCHes, the Location and Upload-Offset read from the answers.
    private const string Page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>Uppy</title><script src="uppy.js"></script></head>
        <body><script>
        window.upload = async (endpoint, key) => {
          const bytes = new Uint8Array(300000);
          for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) % 251;
          const uppy = new window.Uppy({ autoProceed: false });
          uppy.use(window.UppyTus, { endpoint, chunkSize: 65536, retryDelays: [], headers: { Authorization: 'Bearer ' + key } });
          uppy.addFile({ name: 'from-browser.bin', type: 'application/octet-stream', data: new Blob([bytes]), meta: { folder: 'uppy' } });
          uppy.setMeta({ folder: 'uppy' });
          const result = await uppy.upload();
          return result.successful.length === 1 ? 'success' : 'error: ' + (result.failed[0]?.error ?? 'unknown');
        };
        </script></body></html>
        """;

    private static string Expected()
    {
        var bytes = new byte[300_000];
        for (var i = 0; i < bytes.Length; i++)
        {
            bytes[i] = (byte)(((i * 31) + 7) % 251);
        }

        return TempStorage.Sha256(bytes);
    }

    private static async Task BundleUppyAsync(string outfile)
    {
        if (!Directory.Exists(Path.Combine(NodeFolder, "node_modules", "@uppy", "tus")))
        {
            Assert.Fail("Uppy is not installed in tests/interop/node. Run scripts/install-test-deps.sh; .ci/run does before testing.");
        }

        var start = new ProcessStartInfo("node", [Path.Combine(NodeFolder, "uppy-bundle.js"), outfile]) { RedirectStandardError = true };
        using var process = Process.Start(start)!;
        var error = process.StandardError.ReadToEndAsync(TestTimeout.Token);
        await process.WaitForExitAsync(TestTimeout.Token);
        Assert.True(process.ExitCode == 0, await error);
    }

    private async Task<string> UploadWithUppyAsync(KestrelFactory server)
    {
        var endpoint = new Uri(server.AddressOf(HttpProtocols.Http1), "/api/uploads");
        await using var session = await PageSession.OpenAsync(browser.Browser, PageOrigin);
        return await session.Page.EvaluateAsync<string>("([endpoint, key]) => window.upload(endpoint, key)", new[] { endpoint.ToString(), FileTransferFactory.TestKey });
    }
}
