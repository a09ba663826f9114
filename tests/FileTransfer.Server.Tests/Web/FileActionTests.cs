using System.Net;
using FileTransfer.Server.Tests.Events;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.OpenApi;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace FileTransfer.Server.Tests.Web;

/// <summary>Download, share and delete from the web page, checked against the bytes on the server.</summary>
[Collection(BrowserCollection.Name)]
public sealed class FileActionTests(BrowserFixture browser)
{
    [FactWhenChromium]
    public async Task Downloads_The_Files_Bytes_Through_A_Signed_Link_When_Reads_Need_A_Key()
    {
        using var server = new KestrelFactory();
        var bytes = server.Storage.WriteRandom("docs/data.bin", 300_001);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), FileTransferFactory.TestKey, query: "#/docs/");

        var download = await session.Page.RunAndWaitForDownloadAsync(() =>
            session.Row("data.bin").GetByRole(AriaRole.Link, new() { Name = "Download data.bin" }).ClickAsync());

        Assert.Equal("data.bin", download.SuggestedFilename);
        Assert.Equal(TempStorage.Sha256(bytes), TempStorage.Sha256(await File.ReadAllBytesAsync(await download.PathAsync())));
        Assert.Contains("/api/files/docs/data.bin?sig=", download.Url, StringComparison.Ordinal);
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task Shares_A_Link_With_An_Expiry_That_Opens_Without_A_Key()
    {
        using var server = new KestrelFactory();
        var bytes = server.Storage.WriteRandom("docs/report 1#.pdf", 20_000);
        var address = server.AddressOf(HttpProtocols.Http1);
        await using var session = await PageSession.OpenAsync(browser.Browser, address, FileTransferFactory.TestKey, query: "#/docs/");
        await session.Context.GrantPermissionsAsync(["clipboard-read", "clipboard-write"], new() { Origin = address.GetLeftPart(UriPartial.Authority) });
        var page = session.Page;

        await session.Row("report 1#.pdf").GetByRole(AriaRole.Button, new() { Name = "Share report 1#.pdf" }).ClickAsync();
        var dialog = page.GetByRole(AriaRole.Dialog, new() { Name = "Share a link" });
        await dialog.GetByLabel("Link expires after").SelectOptionAsync("15 minutes");
        var before = DateTimeOffset.UtcNow;
        await dialog.GetByRole(AriaRole.Button, new() { Name = "Create link" }).ClickAsync();
        await Expect(dialog.GetByLabel("Link", new() { Exact = true })).ToHaveValueAsync(new System.Text.RegularExpressions.Regex("sig="));
        var url = await dialog.GetByLabel("Link", new() { Exact = true }).InputValueAsync();
        await Expect(dialog).ToContainTextAsync("Valid until");
        await dialog.GetByRole(AriaRole.Button, new() { Name = "Copy link" }).ClickAsync();
        await Expect(dialog).ToContainTextAsync("Link copied to the clipboard.");
        Assert.Equal(url, await page.EvaluateAsync<string>("() => navigator.clipboard.readText()"));

        Assert.StartsWith(new Uri(address, "api/files/docs/report%201%23.pdf?sig=").AbsoluteUri, url, StringComparison.Ordinal);
        using var anonymous = new HttpClient();
        using var response = await anonymous.GetAsync(new Uri(url));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(TempStorage.Sha256(bytes), TempStorage.Sha256(await response.Content.ReadAsByteArrayAsync()));

        // The expiry asked for: 15 minutes from now (the token's JSON part carries it).
        var token = Uri.UnescapeDataString(new Uri(url).Query.Split("sig=")[1]);
        var claims = System.Text.Json.JsonDocument.Parse(Microsoft.AspNetCore.WebUtilities.WebEncoders.Base64UrlDecode(token.Split('.')[0])).RootElement;
        var expires = DateTimeOffset.FromUnixTimeSeconds(claims.EnumerateObject().Single(p => p.Value.ValueKind == System.Text.Json.JsonValueKind.Number && p.Value.GetInt64() > before.ToUnixTimeSeconds()).Value.GetInt64());
        Assert.InRange(expires, before.AddMinutes(15).AddSeconds(-5), DateTimeOffset.UtcNow.AddMinutes(15).AddSeconds(5));

        await dialog.GetByRole(AriaRole.Button, new() { Name = "Close" }).ClickAsync();
        await Expect(dialog).ToBeHiddenAsync();
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task Deletes_Only_After_Confirmation()
    {
        using var server = new KestrelFactory();
        server.Storage.WriteRandom("docs/keep.txt", 10);
        server.Storage.WriteRandom("docs/gone.txt", 10);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), FileTransferFactory.TestKey, query: "#/docs/");
        var page = session.Page;
        var delete = session.Row("gone.txt").GetByRole(AriaRole.Button, new() { Name = "Delete gone.txt" });
        var dialog = page.GetByRole(AriaRole.Dialog, new() { Name = "Delete file" });

        await delete.ClickAsync();
        await Expect(dialog).ToContainTextAsync("Delete docs/gone.txt? This cannot be undone.");
        await dialog.GetByRole(AriaRole.Button, new() { Name = "Cancel" }).ClickAsync();
        await Expect(dialog).ToBeHiddenAsync();
        Assert.True(File.Exists(server.Storage.PathOf("docs/gone.txt")));

        await delete.ClickAsync();
        await dialog.GetByRole(AriaRole.Button, new() { Name = "Delete", Exact = true }).ClickAsync();
        await Expect(session.Row("gone.txt")).ToHaveCountAsync(0);
        await Expect(page.Locator("#notice")).ToHaveTextAsync("Deleted “docs/gone.txt”.");
        Assert.False(File.Exists(server.Storage.PathOf("docs/gone.txt")));
        Assert.True(File.Exists(server.Storage.PathOf("docs/keep.txt")));
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task A_Row_Deleted_After_The_List_Was_Redrawn_Under_Its_Confirmation_Goes_At_Once()
    {
        using var server = new KestrelFactory();
        var address = server.AddressOf(HttpProtocols.Http1);
        await using var session = await OpenWatchingGoneTxtAsync(server, address);
        var page = session.Page;
        var dialog = page.GetByRole(AriaRole.Dialog, new() { Name = "Delete file" });

        // While the confirmation is open another client stores a file here: the page reloads the list.
        await session.Row("gone.txt").GetByRole(AriaRole.Button, new() { Name = "Delete gone.txt" }).ClickAsync();
        using var other = KestrelFactory.ClientFor(address, HttpVersion.Version11);
        (await other.PutAsync("docs/new.txt", [1])).Dispose();
        await Expect(session.Row("new.txt")).ToBeVisibleAsync();

        // No later listing comes back: the row must go on the delete's own answer.
        await page.RouteAsync("**/api/files?**", _ => Task.CompletedTask);
        await dialog.GetByRole(AriaRole.Button, new() { Name = "Delete", Exact = true }).ClickAsync();
        await Expect(page.Locator("#notice")).ToHaveTextAsync("Deleted “docs/gone.txt”.");
        await Expect(session.Row("gone.txt")).ToHaveCountAsync(0);
        await Expect(session.Row("new.txt")).ToBeVisibleAsync();
        Assert.False(File.Exists(server.Storage.PathOf("docs/gone.txt")));
        await page.UnrouteAllAsync(new() { Behavior = UnrouteBehavior.IgnoreErrors });
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task A_Listing_Taken_Before_A_Delete_And_Answered_After_It_Does_Not_Bring_The_Row_Back()
    {
        using var server = new KestrelFactory();
        var address = server.AddressOf(HttpProtocols.Http1);
        await using var session = await OpenWatchingGoneTxtAsync(server, address);
        var page = session.Page;

        // From here the first listing the page asks for is read from the server at once but handed to
        // the page only when released; later ones go through as usual.
        var taken = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var handed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var listings = 0;
        await page.RouteAsync("**/api/files?**", async route =>
        {
            if (Interlocked.Increment(ref listings) > 1)
            {
                await route.ContinueAsync();
                return;
            }

            var response = await route.FetchAsync();
            taken.SetResult();
            await release.Task;
            await route.FulfillAsync(new() { Response = response });
            handed.SetResult();
        });

        // Another client's change makes the page reload while the confirmation is open; its listing
        // still holds gone.txt (and new.txt), and reaches the page after the delete was answered.
        await session.Row("gone.txt").GetByRole(AriaRole.Button, new() { Name = "Delete gone.txt" }).ClickAsync();
        using var other = KestrelFactory.ClientFor(address, HttpVersion.Version11);
        (await other.PutAsync("docs/new.txt", [1])).Dispose();
        await taken.Task.WaitAsync(TimeSpan.FromSeconds(15), TestTimeout.Token);
        await page.GetByRole(AriaRole.Dialog, new() { Name = "Delete file" }).GetByRole(AriaRole.Button, new() { Name = "Delete", Exact = true }).ClickAsync();
        await Expect(page.Locator("#notice")).ToHaveTextAsync("Deleted “docs/gone.txt”.");
        Assert.False(File.Exists(server.Storage.PathOf("docs/gone.txt")));

        // From the delete's answer on, a row of gone.txt drawn at any moment is recorded (a later
        // reload, the delete's own event's, would hide it again).
        await page.EvaluateAsync("""
            () => {
              window.__drawnAgain = false;
              new MutationObserver(() => {
                if ([...document.querySelectorAll('#rows td.name a')].some(a => a.textContent === 'gone.txt')) window.__drawnAgain = true;
              }).observe(document.getElementById('rows'), { childList: true, subtree: true });
            }
            """);
        release.SetResult();
        await handed.Task.WaitAsync(TimeSpan.FromSeconds(15), TestTimeout.Token);
        await Expect(session.Row("new.txt")).ToBeVisibleAsync();
        await Expect(page.Locator("#listing")).ToHaveAttributeAsync("aria-busy", "false");
        Assert.False(await page.EvaluateAsync<bool>("() => window.__drawnAgain"), "a listing asked for before the delete drew its row again");
        await Expect(session.Row("gone.txt")).ToHaveCountAsync(0);
        await page.UnrouteAllAsync(new() { Behavior = UnrouteBehavior.IgnoreErrors });
        await session.AssertCleanAsync();
    }

    // A page on docs/ showing docs/gone.txt, once the server watches the folder for it (its event
    // stream answered): from then on, a change another client makes reloads the page's list.
    private async Task<PageSession> OpenWatchingGoneTxtAsync(KestrelFactory server, Uri address)
    {
        server.Storage.WriteRandom("docs/gone.txt", 10);
        var session = await PageSession.OpenAsync(browser.Browser, address, FileTransferFactory.TestKey, query: "#/docs/");
        await Expect(session.Row("gone.txt")).ToBeVisibleAsync();
        await session.WatchingAsync("docs/").WaitAsync(TimeSpan.FromSeconds(15), TestTimeout.Token);
        return session;
    }

    [FactWhenChromium]
    public async Task A_Delete_Of_A_File_Replaced_Since_It_Was_Listed_Is_A_Readable_412()
    {
        using var server = new KestrelFactory();
        server.Storage.WriteRandom("docs/moving.txt", 10);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), FileTransferFactory.TestKey, query: "#/docs/");
        var page = session.Page;
        await Expect(session.Row("moving.txt")).ToBeVisibleAsync();

        // Another client replaces it: a new ETag (size and time).
        var replaced = server.Storage.WriteRandom("docs/moving.txt", 11);
        await session.Row("moving.txt").GetByRole(AriaRole.Button, new() { Name = "Delete moving.txt" }).ClickAsync();
        await page.GetByRole(AriaRole.Dialog).GetByRole(AriaRole.Button, new() { Name = "Delete", Exact = true }).ClickAsync();

        await Expect(page.GetByRole(AriaRole.Alert)).ToContainTextAsync(
            "“docs/moving.txt” changed on the server since this list was loaded, so it was left as it is. Reload the list and try again.");
        Assert.Equal(replaced, await File.ReadAllBytesAsync(server.Storage.PathOf("docs/moving.txt")));
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task Works_Behind_A_Proxy_That_Serves_It_Under_A_Path_Prefix()
    {
        using var server = new KestrelFactory();
        server.WithServices(services => services.AddTransient<Microsoft.AspNetCore.Hosting.IStartupFilter>(_ => new PathPrefixProxy("/ft")));
        for (var i = 0; i < 3; i++)
        {
            server.Storage.WriteRandom($"docs/f{i}.bin", 1000 + i);
        }

        var bytes = server.Storage.WriteRandom("docs/f3.bin", 1003);
        var address = new Uri(server.AddressOf(HttpProtocols.Http1), "ft/");
        await using var session = await PageSession.OpenAsync(browser.Browser, address, FileTransferFactory.TestKey, query: "?pageSize=2");
        var page = session.Page;

        await page.GetByRole(AriaRole.Link, new() { Name = "docs/" }).ClickAsync();
        await Expect(page.Locator("#rows tr")).ToHaveCountAsync(2);
        // The server's Link header is /api/files?... from its own root; the page pages under the prefix.
        await page.GetByRole(AriaRole.Button, new() { Name = "Load more" }).ClickAsync();
        await Expect(page.Locator("#rows tr")).ToHaveCountAsync(4);

        var download = await page.RunAndWaitForDownloadAsync(() => session.Row("f3.bin").GetByRole(AriaRole.Link, new() { Name = "Download f3.bin" }).ClickAsync());
        Assert.StartsWith(new Uri(address, "api/files/docs/f3.bin?sig=").AbsoluteUri, download.Url, StringComparison.Ordinal);
        Assert.Equal(bytes, await File.ReadAllBytesAsync(await download.PathAsync()));

        await session.Row("f3.bin").GetByRole(AriaRole.Button, new() { Name = "Share f3.bin" }).ClickAsync();
        await page.GetByRole(AriaRole.Button, new() { Name = "Create link" }).ClickAsync();
        await Expect(page.GetByLabel("Link", new() { Exact = true })).ToHaveValueAsync(new System.Text.RegularExpressions.Regex("^" + System.Text.RegularExpressions.Regex.Escape(new Uri(address, "api/files/docs/f3.bin?sig=").AbsoluteUri)));
        await session.AssertCleanAsync();
    }
}
