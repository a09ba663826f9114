using System.Net;
using System.Text.RegularExpressions;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.OpenApi;
using FileTransfer.Server.Web;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Web;

/// <summary>The page's own responses: the policy headers, no inline code, and the routes beside it untouched.</summary>
[Collection(BrowserCollection.Name)]
public sealed partial class PageSecurityTests(BrowserFixture browser)
{
    private static readonly string WebRoot = Path.Combine(RepositoryPaths.Root, "src", "FileTransfer.Server", "wwwroot");

    [Theory]
    [InlineData("/")]
    [InlineData("/index.html")]
    [InlineData("/js/main.js")]
    [InlineData("/css/page.css")]
    public async Task Every_File_Of_The_Page_Carries_The_Content_Security_Policy_And_Nosniff(string path)
    {
        using var server = new KestrelFactory();
        using var client = new HttpClient { BaseAddress = server.AddressOf(HttpProtocols.Http1) };

        using var response = await client.GetAsync(path);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        AssertPolicy(response);

        // A revalidation (304) keeps the policy too.
        using var again = new HttpRequestMessage(HttpMethod.Get, path) { Headers = { { "If-None-Match", response.Headers.ETag!.ToString() } } };
        using var notModified = await client.SendAsync(again);
        Assert.Equal(HttpStatusCode.NotModified, notModified.StatusCode);
        AssertPolicy(notModified);
    }

    [Fact]
    public void The_Policy_Allows_Only_The_Pages_Own_Files_And_No_Framing()
    {
        var directives = WebPageHeaders.ContentSecurityPolicy.Split(';', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)
            .ToDictionary(d => d.Split(' ')[0], d => d[(d.IndexOf(' ', StringComparison.Ordinal) + 1)..]);

        Assert.Equal("'self'", directives["default-src"]);
        Assert.Equal("'self'", directives["script-src"]);
        Assert.Equal("'self'", directives["style-src"]);
        Assert.Equal("'none'", directives["frame-ancestors"]);
        Assert.Equal("'none'", directives["object-src"]);
        Assert.Equal("'none'", directives["base-uri"]);
        Assert.Equal("'script'", directives["require-trusted-types-for"]);
        Assert.DoesNotContain("unsafe", WebPageHeaders.ContentSecurityPolicy, StringComparison.Ordinal);
    }

    [Fact]
    public void The_Page_Has_No_Inline_Script_Or_Style_And_No_Html_Sinks()
    {
        var html = File.ReadAllText(Path.Combine(WebRoot, "index.html"));
        Assert.All(ScriptTags().Matches(html), tag => Assert.Contains(" src=", tag.Value, StringComparison.Ordinal));
        Assert.DoesNotMatch(EventHandlerAttribute(), html);
        Assert.DoesNotContain("<style", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain(" style=", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("javascript:", html, StringComparison.OrdinalIgnoreCase);

        // Names reach the document only as text: no script uses an HTML string sink or eval.
        foreach (var script in Directory.EnumerateFiles(Path.Combine(WebRoot, "js"), "*.js"))
        {
            var code = File.ReadAllText(script);
            Assert.DoesNotMatch(HtmlSinks(), code);
        }
    }

    [Fact]
    public async Task The_Routes_Beside_The_Page_Are_Untouched()
    {
        using var server = new KestrelFactory();
        using var client = new HttpClient { BaseAddress = server.AddressOf(HttpProtocols.Http1) };

        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/swagger/index.html")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/openapi/v1.json")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/healthz")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/metrics")).StatusCode);
        using var files = await client.GetAsync("/api/files");
        Assert.Equal(HttpStatusCode.Unauthorized, files.StatusCode);
        Assert.Equal("application/problem+json", files.Content.Headers.ContentType?.MediaType);
        Assert.False(files.Headers.Contains("Content-Security-Policy"));
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync("/js/missing.js")).StatusCode);
    }

    [FactWhenChromium]
    public async Task The_Page_Runs_Under_Its_Policy_Without_A_Violation()
    {
        using var server = new KestrelFactory();
        server.Storage.WriteRandom("a/b.txt", 3);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), FileTransferFactory.TestKey);

        await Microsoft.Playwright.Assertions.Expect(session.Row("a/")).ToBeVisibleAsync();
        await session.Page.GetByRole(Microsoft.Playwright.AriaRole.Link, new() { Name = "a/" }).ClickAsync();
        await Microsoft.Playwright.Assertions.Expect(session.Row("b.txt")).ToBeVisibleAsync();

        // The policy is in force: an inline script the page did not ship is refused and reported.
        Assert.Equal(0, await session.Page.EvaluateAsync<int>("() => document.querySelectorAll('script:not([src]), [style], style').length"));
        await session.AssertCleanAsync();
        await session.Page.EvaluateAsync("() => { try { const s = document.createElement('script'); s.textContent = 'window.__ran = 1'; document.body.append(s); } catch { } }");
        Assert.Null(await session.Page.EvaluateAsync<int?>("() => window.__ran ?? null"));
        Assert.NotEmpty(await session.Page.EvaluateAsync<string[]>("() => window.__violations"));
    }

    private static void AssertPolicy(HttpResponseMessage response)
    {
        Assert.Equal(WebPageHeaders.ContentSecurityPolicy, string.Join(", ", response.Headers.GetValues("Content-Security-Policy")));
        Assert.Equal("nosniff", string.Join(", ", response.Headers.GetValues("X-Content-Type-Options")));
        Assert.Equal("DENY", string.Join(", ", response.Headers.GetValues("X-Frame-Options")));
        Assert.Equal("no-referrer", string.Join(", ", response.Headers.GetValues("Referrer-Policy")));
    }

    [GeneratedRegex("<script[^>]*>", RegexOptions.IgnoreCase)]
    private static partial Regex ScriptTags();

    [GeneratedRegex(@"\son[a-z]+\s*=", RegexOptions.IgnoreCase)]
    private static partial Regex EventHandlerAttribute();

    [GeneratedRegex(@"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function\(|createContextualFragment|DOMParser")]
    private static partial Regex HtmlSinks();
}
