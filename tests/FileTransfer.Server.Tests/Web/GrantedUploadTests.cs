using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.OpenApi;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using static Microsoft.Playwright.Assertions;

namespace FileTransfer.Server.Tests.Web;

/// <summary>With a key limited to a folder, the page shows only what the key may see and offers uploads only where it may write.</summary>
[Collection(BrowserCollection.Name)]
public sealed class GrantedUploadTests(BrowserFixture browser)
{
    private const string TeamKey = "team-a-page-key-0000000000";

    [FactWhenChromium]
    public async Task A_Folder_Key_Sees_Its_Folder_Only_And_Is_Offered_Uploads_Only_There()
    {
        using var server = new KestrelFactory();
        server.With("Auth:ApiKeys:1:Key", TeamKey)
            .With("Auth:ApiKeys:1:Scopes:0", "read").With("Auth:ApiKeys:1:Scopes:1", "write")
            .With("Auth:ApiKeys:1:Paths:0", "teams/a/");
        server.Storage.WriteRandom("teams/a/mine.bin", 10);
        server.Storage.WriteRandom("teams/b/theirs.bin", 10);
        server.Storage.WriteRandom("top.bin", 10);
        var address = server.AddressOf(HttpProtocols.Http1);

        await using (var top = await PageSession.OpenAsync(browser.Browser, address, TeamKey, query: "#/"))
        {
            await Expect(top.Row("teams/")).ToBeVisibleAsync();
            await Expect(top.Page.Locator("#upload-area")).ToBeHiddenAsync();
            await Expect(top.Row("top.bin")).ToHaveCountAsync(0);
        }

        await using var inside = await PageSession.OpenAsync(browser.Browser, address, TeamKey, query: "#/teams/");
        await Expect(inside.Row("a/")).ToBeVisibleAsync();
        await Expect(inside.Row("b/")).ToHaveCountAsync(0);
        await Expect(inside.Page.Locator("#upload-area")).ToBeHiddenAsync();
        await inside.Row("a/").GetByRole(Microsoft.Playwright.AriaRole.Link).First.ClickAsync();
        await Expect(inside.Row("mine.bin")).ToBeVisibleAsync();
        await Expect(inside.Page.Locator("#upload-area")).ToBeVisibleAsync();
    }
}
