using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.OpenApi;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace FileTransfer.Server.Tests.Web;

/// <summary>A phone-sized window, the keyboard alone, and the contrast of every visible text.</summary>
[Collection(BrowserCollection.Name)]
public sealed class AccessibilityTests(BrowserFixture browser)
{
    // WCAG 2.x contrast of each visible element's own text against the first opaque background
    // behind it; returns the elements under 4.5:1.
    private const string LowContrast = """
        () => {
          const parse = c => { const m = /rgba?\(([^)]+)\)/.exec(c); if (!m) return null; const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
          const channel = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
          const luminance = c => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
          const background = el => { for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a >= 0.9) return c; } return parse(getComputedStyle(document.documentElement).backgroundColor) ?? { r: 255, g: 255, b: 255 }; };
          const low = [];
          for (const el of document.querySelectorAll('body *')) {
            if (!el.checkVisibility() || el.closest('.visually-hidden')) continue;
            if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
            const a = luminance(parse(getComputedStyle(el).color)), b = luminance(background(el));
            const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
            if (ratio < 4.5) low.push(`${el.tagName} "${el.textContent.trim().slice(0, 40)}": ${ratio.toFixed(2)}`);
          }
          return low;
        }
        """;

    [FactWhenChromium]
    public async Task A_Phone_Sized_Window_Shows_Everything_Without_Sideways_Scrolling()
    {
        using var server = new KestrelFactory();
        server.Storage.WriteRandom("photos/a-rather-long-file-name-from-a-camera-IMG_20261122_123456789.jpg", 2_000_000);
        server.Storage.WriteRandom("photos/b.jpg", 1000);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), FileTransferFactory.TestKey,
            new ViewportSize { Width = 360, Height = 640 }, "#/photos/");
        var page = session.Page;
        var row = session.Row("b.jpg");
        await Expect(row).ToBeVisibleAsync();

        Assert.True(await page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways");
        foreach (var control in new[]
        {
            page.GetByRole(AriaRole.Button, new() { Name = "Choose files…" }),
            page.GetByLabel("Filter by name"),
            page.GetByRole(AriaRole.Button, new() { Name = "Modified" }),
            row.GetByRole(AriaRole.Link, new() { Name = "Download b.jpg" }),
            row.GetByRole(AriaRole.Button, new() { Name = "Share b.jpg" }),
            row.GetByRole(AriaRole.Button, new() { Name = "Delete b.jpg" }),
        })
        {
            await control.ScrollIntoViewIfNeededAsync();
            var box = await control.BoundingBoxAsync();
            Assert.NotNull(box);
            Assert.True(box.X >= 0 && box.X + box.Width <= 360, $"{control} is outside the window ({box.X}+{box.Width})");
            Assert.True(box.Height >= 24, $"{control} is {box.Height}px high: too small a target");
        }

        await row.GetByRole(AriaRole.Button, new() { Name = "Share b.jpg" }).ClickAsync();
        var dialog = page.GetByRole(AriaRole.Dialog, new() { Name = "Share a link" });
        var dialogBox = await dialog.BoundingBoxAsync();
        Assert.True(dialogBox!.X >= 0 && dialogBox.X + dialogBox.Width <= 360);
        await dialog.GetByRole(AriaRole.Button, new() { Name = "Create link" }).ClickAsync();
        await Expect(dialog.GetByLabel("Link", new() { Exact = true })).ToHaveValueAsync(new System.Text.RegularExpressions.Regex("sig="));
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task Everything_Works_From_The_Keyboard_With_A_Visible_Focus()
    {
        using var server = new KestrelFactory();
        server.Storage.WriteRandom("docs/small.txt", 1);
        server.Storage.WriteRandom("docs/large.txt", 1000);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), FileTransferFactory.TestKey);
        var page = session.Page;
        await Expect(session.Row("docs/")).ToBeVisibleAsync();
        var focused = () => page.EvaluateAsync<string>("() => { const e = document.activeElement; return (e.getAttribute('aria-label') || e.labels?.[0]?.textContent || e.textContent).trim(); }");

        // The first Tab reaches the skip link, which jumps to the file list.
        await page.Keyboard.PressAsync("Tab");
        Assert.Equal("Skip to the file list", await focused());
        await page.Keyboard.PressAsync("Enter");
        await page.Keyboard.PressAsync("Tab");
        Assert.Equal("Filter by name", await focused());
        Assert.True(await page.EvaluateAsync<bool>("() => getComputedStyle(document.activeElement).outlineStyle === 'solid' && parseFloat(getComputedStyle(document.activeElement).outlineWidth) >= 2"), "no visible focus");

        // Tab through Reload and the sort buttons to the folder, and open it with Enter.
        await page.Keyboard.PressAsync("Tab");
        Assert.Equal("Reload", await focused());
        await page.Keyboard.PressAsync("Tab");
        Assert.Equal("Name", await focused());
        await page.Keyboard.PressAsync("Tab");
        Assert.Equal("Size", await focused());
        await page.Keyboard.PressAsync("Tab");
        await page.Keyboard.PressAsync("Tab");
        Assert.Equal("▸ docs/ (folder)", await focused());
        await page.Keyboard.PressAsync("Enter");
        await Expect(page.Locator("#breadcrumbs [aria-current=page]")).ToHaveTextAsync("docs");

        // Space on a sort button sorts; Enter on Delete opens the confirmation with Cancel focused;
        // Escape closes it and gives the focus back.
        await page.GetByRole(AriaRole.Button, new() { Name = "Size" }).FocusAsync();
        await page.Keyboard.PressAsync("Space");
        await Expect(page.Locator("#rows td.name")).ToHaveTextAsync(["small.txt", "large.txt"]);
        await page.Keyboard.PressAsync("Space");
        await Expect(page.Locator("#rows td.name")).ToHaveTextAsync(["large.txt", "small.txt"]);

        var delete = session.Row("small.txt").GetByRole(AriaRole.Button, new() { Name = "Delete small.txt" });
        await delete.FocusAsync();
        await page.Keyboard.PressAsync("Enter");
        await Expect(page.GetByRole(AriaRole.Dialog, new() { Name = "Delete file" })).ToBeVisibleAsync();
        Assert.Equal("Cancel", await focused());
        await page.Keyboard.PressAsync("Escape");
        await Expect(page.GetByRole(AriaRole.Dialog)).ToBeHiddenAsync();
        Assert.Equal("Delete small.txt", await focused());

        // Enter again, Tab back to "Delete" (Shift+Tab from Cancel) and confirm with Space.
        await page.Keyboard.PressAsync("Enter");
        await page.Keyboard.PressAsync("Shift+Tab");
        Assert.Equal("Delete", await focused());
        await page.Keyboard.PressAsync("Space");
        await session.ExplainAsync(() => Expect(session.Row("small.txt")).ToHaveCountAsync(0));
        Assert.False(File.Exists(server.Storage.PathOf("docs/small.txt")));
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task The_Skip_Link_Keeps_The_Folder_On_Screen()
    {
        using var server = new KestrelFactory();
        server.Storage.WriteRandom("docs/inside.txt", 1);
        server.Storage.WriteRandom("top.txt", 1);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), FileTransferFactory.TestKey, query: "#/docs/");
        var page = session.Page;
        await Expect(session.Row("inside.txt")).ToBeVisibleAsync();

        await page.Keyboard.PressAsync("Tab");
        await page.Keyboard.PressAsync("Enter");
        await page.Keyboard.PressAsync("Tab");
        Assert.Equal("filter", await page.EvaluateAsync<string>("() => document.activeElement.id"));
        Assert.EndsWith("#/docs/", page.Url, StringComparison.Ordinal);
        await Expect(page.Locator("#breadcrumbs [aria-current=page]")).ToHaveTextAsync("docs");
        await Expect(session.Row("inside.txt")).ToBeVisibleAsync();
        await Expect(session.Row("top.txt")).ToHaveCountAsync(0);
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task Every_Text_Has_At_Least_AA_Contrast_In_Light_And_Dark()
    {
        using var server = new KestrelFactory();
        server.Storage.WriteRandom("docs/a.txt", 10);
        server.Storage.WriteRandom("b.txt", 10);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), FileTransferFactory.TestKey);
        var page = session.Page;
        await Expect(session.Row("b.txt")).ToBeVisibleAsync();

        foreach (var scheme in new[] { ColorScheme.Light, ColorScheme.Dark })
        {
            await page.EmulateMediaAsync(new() { ColorScheme = scheme });
            Assert.Empty(await page.EvaluateAsync<string[]>(LowContrast));

            // An error and a dialog too.
            await page.EvaluateAsync("() => { document.getElementById('alert-text').textContent = 'An error'; document.getElementById('alert').hidden = false; }");
            Assert.Empty(await page.EvaluateAsync<string[]>(LowContrast));
            await session.Row("b.txt").GetByRole(AriaRole.Button, new() { Name = "Delete b.txt" }).ClickAsync();
            Assert.Empty(await page.EvaluateAsync<string[]>(LowContrast));
            await page.Keyboard.PressAsync("Escape");
        }

        await session.AssertCleanAsync();
    }
}
