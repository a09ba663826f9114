using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.OpenApi;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace FileTransfer.Server.Tests.Web;

/// <summary>
/// Uploads from the web page through the tus endpoint (api/uploads): dropped from disk, resumed
/// after a reload, paused, cancelled, refused; every stored file compared by SHA-256.
/// </summary>
[Collection(BrowserCollection.Name)]
public sealed class UploadTests(BrowserFixture browser) : IDisposable
{
    private const int Chunk = 128 * 1024;
    private readonly TempStorage _local = new();

    [FactWhenChromium]
    public async Task Uploads_Two_Files_And_A_Folder_Dropped_From_Disk_With_Their_SHA256()
    {
        using var server = new KestrelFactory();
        var one = _local.WriteRandom("one.bin", (3 * Chunk) + 12345);
        var two = _local.WriteRandom("two.txt", 1);
        var three = _local.WriteRandom("folder/inner/three.bin", Chunk);
        var empty = _local.WriteRandom("folder/empty.txt", 0);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), FileTransferFactory.TestKey, query: $"?chunkSize={Chunk}#/inbox/");
        var page = session.Page;
        await Expect(page.Locator("#breadcrumbs [aria-current=page]")).ToHaveTextAsync("inbox");

        await DropAsync(page, _local.PathOf("one.bin"), _local.PathOf("two.txt"));
        await Expect(page.Locator("#uploads li[data-state=done]")).ToHaveCountAsync(2);
        await Expect(Upload(page, "inbox/one.bin")).ToContainTextAsync($"SHA-256 verified ({TempStorage.Sha256(one)[..16].ToLowerInvariant()}…)");
        Assert.Equal(TempStorage.Sha256(one), Stored(server, "inbox/one.bin"));
        Assert.Equal(TempStorage.Sha256(two), Stored(server, "inbox/two.txt"));

        // A folder keeps its tree under the folder on screen (an empty file included).
        await DropAsync(page, _local.PathOf("folder"));
        await Expect(page.Locator("#uploads li[data-state=done]")).ToHaveCountAsync(4);
        Assert.Equal(TempStorage.Sha256(three), Stored(server, "inbox/folder/inner/three.bin"));
        Assert.Equal(TempStorage.Sha256(empty), Stored(server, "inbox/folder/empty.txt"));

        // The list shows what arrived.
        await Expect(session.Row("one.bin")).ToContainTextAsync("396 KiB");
        await Expect(session.Row("folder/")).ToContainTextAsync("2 files, 128 KiB");
        Assert.Empty(await page.EvaluateAsync<string[]>("() => Object.keys(localStorage).filter(k => k.startsWith('filetransfer.upload:'))"));
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task An_Upload_Interrupted_By_A_Reload_Continues_From_The_Persisted_Offset()
    {
        using var server = new KestrelFactory();
        var bytes = _local.WriteRandom("big.bin", (8 * Chunk) + 99);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), FileTransferFactory.TestKey, query: $"?chunkSize={Chunk}#/big/");
        var page = session.Page;

        // The fourth PATCH never gets through: the page is reloaded while it hangs.
        var patches = 0;
        var held = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await page.RouteAsync("**/api/uploads/**", async route =>
        {
            if (route.Request.Method == "PATCH" && Interlocked.Increment(ref patches) > 3)
            {
                held.TrySetResult();
                return;
            }

            await route.ContinueAsync();
        });
        await page.Locator("#pick-files").SetInputFilesAsync(_local.PathOf("big.bin"));
        await held.Task.WaitAsync(TimeSpan.FromSeconds(30));

        var saved = JsonDocument.Parse(await page.EvaluateAsync<string>(
            "() => localStorage.getItem(Object.keys(localStorage).find(k => k.startsWith('filetransfer.upload:')))")).RootElement;
        Assert.Equal(3 * Chunk, saved.GetProperty("offset").GetInt64());
        Assert.Equal("big/big.bin", saved.GetProperty("target").GetString());

        await page.UnrouteAllAsync(new() { Behavior = UnrouteBehavior.IgnoreErrors });
        await page.ReloadAsync();
        var unfinished = page.GetByRole(AriaRole.Region, new() { Name = "Unfinished uploads" });
        await Expect(unfinished).ToContainTextAsync("big/big.bin — 384 KiB of 1.0 MiB (37%) sent");
        Assert.DoesNotContain(server.Storage.VisibleFiles(), f => f.StartsWith("big/", StringComparison.Ordinal));

        // The same file again: the page asks the server where it stands (HEAD) and sends the rest.
        var offsets = new List<string>();
        page.Request += (_, request) =>
        {
            if (request.Method is "HEAD" or "PATCH" && request.Url.Contains("/api/uploads/", StringComparison.Ordinal))
            {
                offsets.Add($"{request.Method} {request.Headers.GetValueOrDefault("upload-offset")}");
            }
        };
        await page.Locator("#pick-files").SetInputFilesAsync(_local.PathOf("big.bin"));
        var upload = Upload(page, "big/big.bin");
        await Expect(upload).ToHaveAttributeAsync("data-state", "done");
        await Expect(upload).ToContainTextAsync("SHA-256 verified");
        await Expect(unfinished).ToBeHiddenAsync();

        // HEAD, then the 4th to 8th chunks and the last 99 bytes: nothing the server had is sent again.
        string[] expected = ["HEAD ", .. Enumerable.Range(3, 6).Select(chunk => $"PATCH {chunk * Chunk}")];
        Assert.Equal(expected, offsets);
        Assert.Equal(TempStorage.Sha256(bytes), Stored(server, "big/big.bin"));
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task Pause_Resume_And_Cancel()
    {
        using var server = new KestrelFactory();
        var slow = _local.WriteRandom("slow.bin", 10 * Chunk);
        _local.WriteRandom("cancelled.bin", 10 * Chunk);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1), FileTransferFactory.TestKey, query: $"?chunkSize={Chunk}");
        var page = session.Page;
        await page.RouteAsync("**/api/uploads/**", async route =>
        {
            if (route.Request.Method == "PATCH")
            {
                await Task.Delay(300);
            }

            await route.FallbackAsync();
        });

        await page.Locator("#pick-files").SetInputFilesAsync([_local.PathOf("slow.bin"), _local.PathOf("cancelled.bin")]);
        var upload = Upload(page, "slow.bin");
        await Expect(upload).ToContainTextAsync(new System.Text.RegularExpressions.Regex(@"KiB/s · about \d+ s left"));
        await upload.GetByRole(AriaRole.Button, new() { Name = "Pause slow.bin" }).ClickAsync();
        await Expect(upload).ToHaveAttributeAsync("data-state", "paused");
        var pausedAt = await upload.Locator("progress").EvaluateAsync<double>("p => p.value");
        Assert.InRange(pausedAt, 1, (10 * Chunk) - 1);
        await page.WaitForTimeoutAsync(700);
        Assert.Equal(pausedAt, await upload.Locator("progress").EvaluateAsync<double>("p => p.value"));

        var other = Upload(page, "cancelled.bin");
        await other.GetByRole(AriaRole.Button, new() { Name = "Cancel cancelled.bin" }).ClickAsync();
        await Expect(other).ToHaveAttributeAsync("data-state", "cancelled");

        await upload.GetByRole(AriaRole.Button, new() { Name = "Resume slow.bin" }).ClickAsync();
        await Expect(upload).ToHaveAttributeAsync("data-state", "done", new() { Timeout = 30_000 });
        Assert.Equal(TempStorage.Sha256(slow), Stored(server, "slow.bin"));
        Assert.DoesNotContain("cancelled.bin", server.Storage.VisibleFiles());
        Assert.Empty(await page.EvaluateAsync<string[]>("() => Object.keys(localStorage).filter(k => k.startsWith('filetransfer.upload:'))"));
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task A_401_A_413_And_A_412_Read_As_Messages_That_Say_What_To_Do()
    {
        using var server = new KestrelFactory();
        server.With("Auth:AllowAnonymousRead", "true").With("Storage:MaxFileSizeBytes", "1000");
        var original = server.Storage.WriteRandom("exists.txt", 10);
        var replacement = _local.WriteRandom("exists.txt", 20);
        _local.WriteRandom("big.bin", 1001);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1));
        var page = session.Page;
        await Expect(session.Row("exists.txt")).ToBeVisibleAsync();

        // 401: reads are anonymous here, an upload is not; the key dialog says why.
        await page.Locator("#pick-files").SetInputFilesAsync(_local.PathOf("exists.txt"));
        var dialog = page.GetByRole(AriaRole.Dialog, new() { Name = "API key" });
        await Expect(dialog).ToContainTextAsync("This server needs an API key to upload. Enter one to continue.");
        await Expect(Upload(page, "exists.txt")).ToContainTextAsync("This server needs an API key to upload. Enter one to continue.");
        await dialog.GetByLabel("API key").FillAsync(FileTransferFactory.TestKey);
        await dialog.GetByRole(AriaRole.Button, new() { Name = "Use this key" }).ClickAsync();

        // 412: tried again with the key, and the file exists.
        var exists = Upload(page, "exists.txt");
        await Expect(exists).ToContainTextAsync("“exists.txt” already exists. Tick “Replace files that already exist” to overwrite it, or rename your file.");
        await Expect(exists).ToHaveAttributeAsync("data-state", "failed");
        Assert.Equal(original, await File.ReadAllBytesAsync(server.Storage.PathOf("exists.txt")));

        // 413: over Storage:MaxFileSizeBytes, with the limit the server announces.
        await page.Locator("#pick-files").SetInputFilesAsync(_local.PathOf("big.bin"));
        await Expect(Upload(page, "big.bin")).ToContainTextAsync("“big.bin” is too large for this server (it accepts at most 1000 B). Nothing was stored.");
        await Expect(page.GetByRole(AriaRole.Alert)).ToContainTextAsync("is too large for this server");
        Assert.DoesNotContain("big.bin", server.Storage.VisibleFiles());

        // Replacing on purpose then works.
        await page.GetByLabel("Replace files that already exist").CheckAsync();
        await exists.GetByRole(AriaRole.Button, new() { Name = "Try again exists.txt" }).ClickAsync();
        await Expect(exists).ToHaveAttributeAsync("data-state", "done");
        Assert.Equal(TempStorage.Sha256(replacement), Stored(server, "exists.txt"));
        await session.AssertCleanAsync();
    }

    [FactWhenChromium]
    public async Task The_Alert_That_A_Key_Is_Needed_Goes_Once_The_Upload_With_The_Key_Succeeds()
    {
        using var server = new KestrelFactory();
        server.With("Auth:AllowAnonymousRead", "true");
        _local.WriteRandom("fresh.txt", 100);
        await using var session = await PageSession.OpenAsync(browser.Browser, server.AddressOf(HttpProtocols.Http1));
        var page = session.Page;
        await page.Locator("#pick-files").SetInputFilesAsync(_local.PathOf("fresh.txt"));
        var dialog = page.GetByRole(AriaRole.Dialog, new() { Name = "API key" });
        await Expect(page.GetByRole(AriaRole.Alert)).ToContainTextAsync("This server needs an API key to upload.");

        await dialog.GetByLabel("API key").FillAsync(FileTransferFactory.TestKey);
        await dialog.GetByRole(AriaRole.Button, new() { Name = "Use this key" }).ClickAsync();

        await Expect(Upload(page, "fresh.txt")).ToHaveAttributeAsync("data-state", "done");
        await Expect(page.Locator("#alert")).ToBeHiddenAsync();
        Assert.Equal(TempStorage.Sha256(await File.ReadAllBytesAsync(_local.PathOf("fresh.txt"), TestTimeout.Token)), Stored(server, "fresh.txt"));
        await session.AssertCleanAsync();
    }

    public void Dispose() => _local.Dispose();

    private static ILocator Upload(IPage page, string target) =>
        page.Locator("#uploads li").Filter(new() { Has = page.Locator(".upload-name", new() { HasText = target }) });

    private static string Stored(KestrelFactory server, string name) => TempStorage.Sha256(File.ReadAllBytes(server.Storage.PathOf(name)));

    // A real drag from the file manager: Chromium's own drag pipeline (DevTools Input.dispatchDragEvent)
    // with paths on disk, so a folder arrives as a directory entry with its tree.
    private static async Task DropAsync(IPage page, params string[] paths)
    {
        var cdp = await page.Context.NewCDPSessionAsync(page);
        var data = new Dictionary<string, object> { ["items"] = Array.Empty<object>(), ["files"] = paths, ["dragOperationsMask"] = 1 };
        foreach (var type in new[] { "dragEnter", "dragOver", "drop" })
        {
            await cdp.SendAsync("Input.dispatchDragEvent", new Dictionary<string, object> { ["type"] = type, ["x"] = 300, ["y"] = 300, ["data"] = data });
        }

        await cdp.DetachAsync();
    }
}
