using System.Net;
using FileTransfer.Server.Tests.Events;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.OpenApi;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using static Microsoft.Playwright.Assertions;

namespace FileTransfer.Server.Tests.Web;

/// <summary>The listing follows the server's events: files another client stores or deletes in the folder on screen appear and go without a reload.</summary>
[Collection(BrowserCollection.Name)]
public sealed class LiveUpdateTests(BrowserFixture browser)
{
    [FactWhenChromium]
    public async Task Files_Another_Client_Stores_Or_Deletes_In_The_Folder_On_Screen_Appear_And_Go_Live()
    {
        using var server = new KestrelFactory();
        var address = server.AddressOf(HttpProtocols.Http1);
        server.Storage.WriteRandom("live/first.bin", 10);

        // The page lists the folder and opens its event stream at the same time; the server answers the
        // stream once it is subscribed. A change made before that has no event on the stream (on a busy
        // machine the listing can be on screen well before), so the other client waits for it.
        await using var session = await PageSession.OpenAsync(browser.Browser, address, FileTransferFactory.TestKey, query: "#/live/");
        await Expect(session.Row("first.bin")).ToBeVisibleAsync();
        await session.WatchingAsync("live/").WaitAsync(TestTimeout.Token);
        var listings = 0;
        session.Page.Request += (_, request) => listings += request.Url.Contains("/api/files?", StringComparison.Ordinal) ? 1 : 0;

        using var other = KestrelFactory.ClientFor(address, HttpVersion.Version11);
        await other.PutAsync("live/arrived.bin", TestData.RandomBytes(2048));
        await other.PutAsync("elsewhere/ignored.bin", [1]);
        await Expect(session.Row("arrived.bin")).ToBeVisibleAsync();

        (await other.DeleteAsync("api/files/live/first.bin", TestTimeout.Token)).EnsureSuccessStatusCode();
        await Expect(session.Row("first.bin")).ToHaveCountAsync(0);
        await Expect(session.Row("arrived.bin")).ToBeVisibleAsync();

        Assert.InRange(listings, 2, 4); // one reload per change in the folder (the other folder's change none)
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task After_Moving_To_Another_Folder_The_Page_Follows_That_Folders_Changes()
    {
        using var server = new KestrelFactory();
        var address = server.AddressOf(HttpProtocols.Http1);
        server.Storage.WriteRandom("live/first.bin", 10);
        server.Storage.WriteRandom("top.bin", 10);

        await using var session = await PageSession.OpenAsync(browser.Browser, address, FileTransferFactory.TestKey, query: "#/live/");
        await Expect(session.Row("first.bin")).ToBeVisibleAsync();
        await session.WatchingAsync("live/").WaitAsync(TestTimeout.Token);

        // Up to the top folder by its breadcrumb: the stream now follows the top folder, not the one left.
        await session.Page.Locator("#breadcrumbs a", new() { HasText = "All files" }).ClickAsync();
        await Expect(session.Row("top.bin")).ToBeVisibleAsync();
        await session.ExplainAsync(() => session.WatchingAsync("").WaitAsync(TimeSpan.FromSeconds(15), TestTimeout.Token));

        using var other = KestrelFactory.ClientFor(address, HttpVersion.Version11);
        await other.PutAsync("arrived-at-the-top.bin", TestData.RandomBytes(100));
        await Expect(session.Row("arrived-at-the-top.bin")).ToBeVisibleAsync();
        await session.AssertCleanAsync();
    }
}
