using System.Text.RegularExpressions;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.OpenApi;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using static Microsoft.Playwright.Assertions;

namespace FileTransfer.Server.Tests.Web;

/// <summary>The web page in Chromium against the real server on Kestrel: browsing, keys, names as text.</summary>
[Collection(BrowserCollection.Name)]
public sealed class BrowseTests(BrowserFixture browser)
{
    [FactWhenChromium]
    public async Task Browses_Into_A_Folder_And_Back_With_Breadcrumbs_Sorting_And_Filter()
    {
        using var server = new KestrelFactory();
        server.Storage.WriteRandom("docs/report.pdf", 3 * 1024 * 1024);
        server.Storage.WriteRandom("docs/notes.txt", 10);
        server.Storage.WriteRandom("docs/old/a.bin", 1500);
        server.Storage.WriteRandom("docs/old/b.bin", 500);
        server.Storage.WriteRandom("top.txt", 5);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), FileTransferFactory.TestKey);
        var page = session.Page;

        await Expect(page.Locator("#summary")).ToHaveTextAsync("1 folder, 1 file (5 B).");
        await page.GetByRole(Microsoft.Playwright.AriaRole.Link, new() { Name = "docs/" }).ClickAsync();

        await Expect(page.Locator("#breadcrumbs")).ToHaveTextAsync("All filesdocs");
        await Expect(page.Locator("#breadcrumbs [aria-current=page]")).ToHaveTextAsync("docs");
        Assert.EndsWith("#/docs/", page.Url);
        await Expect(page.Locator("#summary")).ToHaveTextAsync("1 folder, 2 files (3.0 MiB).");
        await Expect(session.Row("old/")).ToContainTextAsync("2 files, 2.0 KiB");
        await Expect(session.Row("report.pdf")).ToContainTextAsync("3.0 MiB");
        await Expect(session.Row("notes.txt")).ToContainTextAsync("10 B");

        // Folders first, then by name; by size descending after two clicks on "Size".
        await Expect(page.Locator("#rows td.name")).ToHaveTextAsync(["▸ old/ (folder)", "notes.txt", "report.pdf"]);
        await page.GetByRole(Microsoft.Playwright.AriaRole.Button, new() { Name = "Size" }).ClickAsync();
        await page.GetByRole(Microsoft.Playwright.AriaRole.Button, new() { Name = "Size" }).ClickAsync();
        await Expect(page.Locator("th[data-sort=size]")).ToHaveAttributeAsync("aria-sort", "descending");
        await Expect(page.Locator("#rows td.name")).ToHaveTextAsync(["▸ old/ (folder)", "report.pdf", "notes.txt"]);

        await page.GetByLabel("Filter by name").FillAsync("REP");
        await Expect(page.Locator("#rows td.name")).ToHaveTextAsync(["report.pdf"]);
        await Expect(page.Locator("#summary")).ToContainTextAsync("1 entry matches the filter");

        // A folder inside, then back to the top through the breadcrumbs (and the browser's Back).
        await page.GetByLabel("Filter by name").FillAsync("");
        await page.GetByRole(Microsoft.Playwright.AriaRole.Link, new() { Name = "old/" }).ClickAsync();
        await Expect(page.Locator("#rows td.name")).ToHaveTextAsync(["a.bin", "b.bin"]);
        await page.GoBackAsync();
        await Expect(page.Locator("#breadcrumbs [aria-current=page]")).ToHaveTextAsync("docs");
        await page.Locator("#breadcrumbs").GetByRole(Microsoft.Playwright.AriaRole.Link, new() { Name = "All files" }).ClickAsync();
        await Expect(page.Locator("#rows td.name")).ToHaveTextAsync(["▸ docs/ (folder)", "top.txt"]);
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task A_Large_Folder_Is_Paged_Through_The_Listing_Api()
    {
        using var server = new KestrelFactory();
        for (var i = 0; i < 7; i++)
        {
            server.Storage.WriteRandom($"many/file{i}.txt", 100);
        }

        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), FileTransferFactory.TestKey, query: "?pageSize=3#/many/");
        var page = session.Page;
        var more = page.GetByRole(Microsoft.Playwright.AriaRole.Button, new() { Name = "Load more" });

        await Expect(page.Locator("#rows tr")).ToHaveCountAsync(3);
        await Expect(page.Locator("#summary")).ToHaveTextAsync("0 folders, 3 files (300 B) so far: 3 names loaded, more follow.");
        await more.ClickAsync();
        await Expect(page.Locator("#rows tr")).ToHaveCountAsync(6);
        await more.ClickAsync();
        await Expect(page.Locator("#rows tr")).ToHaveCountAsync(7);
        await Expect(more).ToBeHiddenAsync();
        await Expect(page.Locator("#summary")).ToHaveTextAsync("0 folders, 7 files (700 B).");
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task Asks_For_A_Key_When_The_Server_Needs_One_And_Keeps_It_For_The_Tab_Only()
    {
        using var server = new KestrelFactory();
        server.Storage.WriteRandom("secret.txt", 10);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1));
        var page = session.Page;

        // 401 without a key: a readable message, and the key dialog says why.
        var dialog = page.GetByRole(Microsoft.Playwright.AriaRole.Dialog, new() { Name = "API key" });
        await Expect(dialog).ToBeVisibleAsync();
        await Expect(dialog).ToContainTextAsync("This server needs an API key to list files. Enter one to continue.");
        await Expect(page.Locator("#alert-text")).ToHaveTextAsync("This server needs an API key to list files. Enter one to continue.");

        // A wrong key: refused, said so, and not kept.
        await dialog.GetByLabel("API key").FillAsync("not-the-key-0123456789");
        await dialog.GetByRole(Microsoft.Playwright.AriaRole.Button, new() { Name = "Use this key" }).ClickAsync();
        await Expect(dialog).ToContainTextAsync("The server refused the API key");
        Assert.Null(await page.EvaluateAsync<string?>("() => sessionStorage.getItem('filetransfer.apiKey')"));

        await dialog.GetByLabel("API key").FillAsync(FileTransferFactory.TestKey);
        await dialog.GetByLabel("API key").PressAsync("Enter");
        await Expect(session.Row("secret.txt")).ToBeVisibleAsync();
        await Expect(page.Locator("#key-state")).ToHaveTextAsync("API key in use (this tab only)");

        // Session storage only: not in localStorage, not in the address, gone with "Forget key".
        Assert.Equal(FileTransferFactory.TestKey, await page.EvaluateAsync<string>("() => sessionStorage.getItem('filetransfer.apiKey')"));
        Assert.DoesNotContain(FileTransferFactory.TestKey, await page.EvaluateAsync<string>("() => JSON.stringify(localStorage)"), StringComparison.Ordinal);
        Assert.DoesNotContain(FileTransferFactory.TestKey, page.Url, StringComparison.Ordinal);
        await page.GetByRole(Microsoft.Playwright.AriaRole.Button, new() { Name = "Forget key" }).ClickAsync();
        Assert.Null(await page.EvaluateAsync<string?>("() => sessionStorage.getItem('filetransfer.apiKey')"));
        await Expect(dialog).ToBeVisibleAsync();
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task Anonymous_Reads_Work_Without_A_Key()
    {
        using var server = new KestrelFactory();
        server.With("Auth:AllowAnonymousRead", "true");
        var bytes = server.Storage.WriteRandom("public/data.bin", 70_000);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), query: "#/public/");
        var page = session.Page;

        await Expect(session.Row("data.bin")).ToContainTextAsync("68 KiB");
        await Expect(page.Locator("#key-dialog")).Not.ToBeVisibleAsync();
        await Expect(page.Locator("#key-state")).ToHaveTextAsync("No API key");
        var download = await page.RunAndWaitForDownloadAsync(() => session.Row("data.bin").GetByRole(Microsoft.Playwright.AriaRole.Link, new() { Name = "Download data.bin" }).ClickAsync());

        Assert.Equal("data.bin", download.SuggestedFilename);
        Assert.Equal(TempStorage.Sha256(bytes), TempStorage.Sha256(await File.ReadAllBytesAsync(await download.PathAsync())));
        Assert.Matches(new Regex(@"/api/files/public/data\.bin$"), download.Url);
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task A_Hostile_File_Name_Is_Shown_As_Text()
    {
        const string name = "<img src=x onerror=alert(1)>.txt";
        using var server = new KestrelFactory();
        server.Storage.WriteRandom(name, 3);
        server.Storage.WriteRandom("<svg onload=alert(2)>/x.txt", 3);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), FileTransferFactory.TestKey);
        var page = session.Page;

        await Expect(page.Locator("#rows td.name")).ToHaveTextAsync(["▸ <svg onload=alert(2)>/ (folder)", name]);
        Assert.Equal(0, await page.Locator("img, svg").CountAsync());
        await session.Row(name).GetByRole(Microsoft.Playwright.AriaRole.Button, new() { Name = $"Delete {name}" }).ClickAsync();
        await Expect(page.Locator("#delete-name")).ToHaveTextAsync(name);
        await page.GetByRole(Microsoft.Playwright.AriaRole.Button, new() { Name = "Cancel" }).ClickAsync();
        await page.GetByRole(Microsoft.Playwright.AriaRole.Link, new() { Name = "<svg onload=alert(2)>/" }).ClickAsync();
        await Expect(page.Locator("#breadcrumbs [aria-current=page]")).ToHaveTextAsync("<svg onload=alert(2)>");
        Assert.Equal(0, await page.Locator("img, svg").CountAsync());

        // Given time, an injected handler would have fired: no dialog, no error.
        await page.WaitForTimeoutAsync(300);
        await session.AssertCleanAsync();
    }
}
