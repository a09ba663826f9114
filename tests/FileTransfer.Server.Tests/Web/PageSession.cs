using System.Collections.Concurrent;
using System.Diagnostics;
using Microsoft.Playwright;

namespace FileTransfer.Server.Tests.Web;

/// <summary>
/// One browser context (its own storage, like a fresh profile) with one page on the server at
/// <see cref="Address"/>, recording what must never happen: a JavaScript dialog (an injected
/// <c>alert</c> would be one), an uncaught error, a Content-Security-Policy violation.
/// </summary>
public sealed class PageSession : IAsyncDisposable
{
    // Runs in the page before its own scripts (through DevTools, so the page's CSP does not apply to it).
    private const string RecordViolations =
        "window.__violations = []; document.addEventListener('securitypolicyviolation', e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));";

    private readonly ConcurrentDictionary<string, TaskCompletionSource> _watched = new(StringComparer.Ordinal);

    private PageSession(IBrowserContext context, IPage page, Uri address)
    {
        Context = context;
        Page = page;
        Address = address;
        page.Dialog += (_, dialog) =>
        {
            Dialogs.Add($"{dialog.Type}: {dialog.Message}");
            _ = dialog.DismissAsync();
        };
        page.PageError += (_, error) => Errors.Add(error);

        var clock = Stopwatch.StartNew();
        void Note(string line) => Journal.Enqueue($"{clock.ElapsedMilliseconds,6} ms  {line}");
        page.Request += (_, request) => Note($"> {request.Method} {request.Url}");
        page.Response += (_, response) => Note($"< {response.Status} {response.Request.Method} {response.Url}");
        page.RequestFailed += (_, request) => Note($"x {request.Failure} {request.Method} {request.Url}");
        page.Console += (_, message) => Note($"console {message.Type}: {message.Text}");
        page.Response += (_, response) =>
        {
            if (response.Ok && response.Url.Contains("/api/events?", StringComparison.Ordinal))
            {
                Watched(System.Web.HttpUtility.ParseQueryString(new Uri(response.Url).Query)["prefix"] ?? "").TrySetResult();
            }
        };
    }

    public IBrowserContext Context { get; }

    public IPage Page { get; }

    /// <summary>The page's own address (ends with '/').</summary>
    public Uri Address { get; }

    public List<string> Dialogs { get; } = [];

    public List<string> Errors { get; } = [];

    /// <summary>What the page asked and was answered, and what it logged, in order since it opened.</summary>
    public ConcurrentQueue<string> Journal { get; } = new();

    /// <summary>
    /// Completes once the server has answered an event stream the page opened for <paramref name="prefix"/>
    /// (the folder, e.g. "docs/", or "" for the top): the server answers once it watches, so a change made
    /// after this reaches the page's list. Before that a change has no event on the stream.
    /// </summary>
    public Task WatchingAsync(string prefix) => Watched(prefix).Task;

    private TaskCompletionSource Watched(string prefix) =>
        _watched.GetOrAdd(prefix, _ => new(TaskCreationOptions.RunContinuationsAsynchronously));

    /// <summary>
    /// A new context and page; <paramref name="apiKey"/>, when given, is in sessionStorage before the page loads (as if typed in earlier).
    /// </summary>
    public static async Task<PageSession> OpenAsync(
        IBrowser browser, Uri address, string? apiKey = null, ViewportSize? viewport = null, string query = "")
    {
        var context = await browser.NewContextAsync(new()
        {
            ViewportSize = viewport ?? new ViewportSize { Width = 1280, Height = 900 },
            AcceptDownloads = true,
            Locale = "en-GB",
            TimezoneId = "UTC",
        });
        context.SetDefaultTimeout(15_000);
        await context.AddInitScriptAsync(RecordViolations);
        if (apiKey is not null)
        {
            await context.AddInitScriptAsync($"sessionStorage.setItem('filetransfer.apiKey', {System.Text.Json.JsonSerializer.Serialize(apiKey)});");
        }

        var page = await context.NewPageAsync();
        var session = new PageSession(context, page, address);
        await page.GotoAsync(new Uri(address, query).ToString());
        return session;
    }

    /// <summary>The table row of the entry named <paramref name="name"/> (a file's name, or a folder's with its '/').</summary>
    public ILocator Row(string name) =>
        Page.Locator("#rows tr").Filter(new() { Has = Page.Locator("td.name a", new() { HasText = name }) });

    /// <summary>Fails on any dialog, uncaught error or CSP violation seen so far.</summary>
    public async Task AssertCleanAsync()
    {
        Assert.Empty(Dialogs);
        Assert.Empty(Errors);
        Assert.Empty(await Page.EvaluateAsync<string[]>("() => window.__violations"));
    }

    /// <summary>
    /// Runs <paramref name="expectation"/>; when it fails, the failure also says what the page showed
    /// in its alert, where its focus is, which dialogs are open, and everything in <see cref="Journal"/>,
    /// so that a failure seen once in a full run says what the page did.
    /// </summary>
    public async Task ExplainAsync(Func<Task> expectation)
    {
        try
        {
            await expectation();
        }
        catch (Exception failure) when (failure is PlaywrightException or TimeoutException)
        {
            var alert = await Page.EvaluateAsync<string>("() => { const a = document.getElementById('alert'); return a && !a.hidden ? a.textContent.trim() : '(none)'; }");
            var state = await Page.EvaluateAsync<string>("() => { const e = document.activeElement; const open = [...document.querySelectorAll('dialog[open]')].map(d => d.id); return `focus: ${e?.tagName} ${e?.id || ''} '${(e?.textContent || '').trim().slice(0, 40)}'; open dialogs: ${open.join(', ') || '(none)'}`; }");
            throw new Xunit.Sdk.XunitException($"{failure.Message}\nThe page's alert: {alert}\nThe page's {state}\nThe page's journal:\n{string.Join('\n', Journal)}");
        }
    }

    public async ValueTask DisposeAsync() => await Context.DisposeAsync();
}
