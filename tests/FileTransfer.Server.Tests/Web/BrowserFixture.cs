using FileTransfer.Server.Tests.OpenApi;
using Microsoft.Playwright;

namespace FileTransfer.Server.Tests.Web;

/// <summary>
/// One headless Chromium for the web page's tests: Debian's <c>chromium</c> driven by Playwright
/// through its executable path. Playwright's driver (its Node.js and JavaScript package) comes with
/// the NuGet package and is copied to <c>.playwright/</c> beside the tests, so nothing is
/// downloaded; no Playwright browser build is installed or needed.
/// </summary>
public sealed class BrowserFixture : IAsyncLifetime
{
    private IPlaywright? _playwright;

    public IBrowser Browser { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        if (FactWhenChromiumAttribute.Chromium is not { } chromium)
        {
            return; // every test here is skipped
        }

        // An expectation waits as long as an action does (PageSession's 15 s): with the whole suite on two
        // cores, a page can take longer than Playwright's default 5 s to show the answer to its request.
        Assertions.SetDefaultExpectTimeout(15_000);
        _playwright = await Playwright.CreateAsync();
        Browser = await _playwright.Chromium.LaunchAsync(new()
        {
            ExecutablePath = chromium,
            Headless = true,
            Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
        });
    }

    public async Task DisposeAsync()
    {
        if (_playwright is not null)
        {
            await Browser.DisposeAsync();
            _playwright.Dispose();
        }
    }
}

/// <summary>The browser tests share one Chromium and run one after another (the machine has two cores).</summary>
[CollectionDefinition(Name)]
public sealed class BrowserCollection : ICollectionFixture<BrowserFixture>
{
    public const string Name = "Browser";
}
