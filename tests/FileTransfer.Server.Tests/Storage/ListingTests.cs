using System.Net;
using FileTransfer.Core;
using FileTransfer.Storage.Local;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Storage;

/// <summary>
/// The one listing both protocols page through: code point (UTF-8 byte) order, pages that add up to the whole,
/// folder links that loop, a client that leaves, and a bound on the work of one page.
/// </summary>
public sealed class ListingTests : IDisposable
{
    private readonly FileTransferFactory _factory = new();

    private FileOperations Files => _factory.Services.GetRequiredService<FileOperations>();

    [Theory]
    [InlineData(1, "")]
    [InlineData(3, "")]
    [InlineData(7, "a/")]
    [InlineData(1000, "")]
    [InlineData(2, "a/b")]
    public async Task Pages_Concatenate_To_The_Whole_Listing_In_Code_Point_Order(int pageSize, string prefix)
    {
        var random = new Random(pageSize);
        var names = new SortedSet<string>(NameOrder.Instance);
        // U+FF5E sorts before U+1F600 by code point (and in UTF-8 bytes) but after its surrogates in UTF-16.
        string[] segments = ["a", "a.b", "a b", "b", "A", "é", "a-", "ab", "z~", "\uFF5E", "\U0001F600"];
        while (names.Count < 60)
        {
            var depth = random.Next(1, 4);
            var name = string.Join('/', Enumerable.Range(0, depth).Select(_ => segments[random.Next(segments.Length)]));
            // A name cannot be both a file and a folder.
            if (!names.Any(n => n.StartsWith(name + "/", StringComparison.Ordinal) || name.StartsWith(n + "/", StringComparison.Ordinal)))
            {
                names.Add(name);
                _factory.Storage.WriteRandom(name, 1);
            }
        }

        var (listed, pages) = await ListAllAsync(prefix, pageSize);

        Assert.Equal(names.Where(n => n.StartsWith(prefix, StringComparison.Ordinal)), listed);
        Assert.InRange(pages, (listed.Count + pageSize - 1) / pageSize, ((listed.Count + pageSize - 1) / pageSize) + 1);
    }

    [Fact]
    public async Task Folder_Links_That_Loop_Are_Not_Followed_And_The_Listing_Ends()
    {
        _factory.Storage.WriteRandom("loop/file.bin", 1);
        Directory.CreateSymbolicLink(_factory.Storage.PathOf("loop/a"), ".");
        Directory.CreateSymbolicLink(_factory.Storage.PathOf("loop/b"), "..");
        Directory.CreateSymbolicLink(_factory.Storage.PathOf("loop/c"), _factory.Storage.PathOf("loop"));

        var (listed, _) = await ListAllAsync("", 1000);

        Assert.Equal(["loop/file.bin"], listed);
    }

    [Fact]
    public async Task A_Folder_Reached_Through_A_Link_Is_Listed_Once_Under_Its_Real_Name_And_Still_Served_Through_The_Link()
    {
        _factory.Storage.WriteRandom("data/x.bin", 1);
        Directory.CreateSymbolicLink(_factory.Storage.PathOf("alias"), "data");
        using var client = _factory.CreateClient();

        Assert.Equal(["data/x.bin"], (await ListAllAsync("", 1000)).Names);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/api/files/alias/x.bin", TestTimeout.Token)).StatusCode);
    }

    [Fact]
    public async Task Sibling_Folder_Links_Do_Not_Multiply_The_Listing()
    {
        // 8 folders, each holding a file and a link to each of the 7 others: followed, the walk would
        // list every file once per path through the links (109,600 names, a minute of CPU).
        var folders = Enumerable.Range(0, 8).Select(i => $"mesh/f{i}").ToList();
        folders.ForEach(f => _factory.Storage.WriteRandom($"{f}/file.bin", 1));
        foreach (var from in folders)
        {
            foreach (var to in folders.Where(t => t != from))
            {
                Directory.CreateSymbolicLink(_factory.Storage.PathOf($"{from}/to-{to[^2..]}"), Path.Join("..", to[5..]));
            }
        }

        var clock = System.Diagnostics.Stopwatch.StartNew();
        var (names, _) = await ListAllAsync("", 1000);

        Assert.Equal(folders.Select(f => $"{f}/file.bin"), names);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(5), $"took {clock.Elapsed}");
    }

    [Fact]
    public async Task A_Cancelled_Request_Stops_The_Walk()
    {
        _factory.Storage.WriteRandom("some/file.bin", 1);
        using var cancelled = new CancellationTokenSource();
        cancelled.Cancel();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () => await Files.ListAsync(Caller.ForKey("test", Scopes.All), new ListQuery(null), cancelled.Token));
    }

    [Fact]
    public void A_Page_That_Spends_Its_Budget_Returns_What_It_Has_And_Resumes_Where_It_Stopped()
    {
        for (var i = 0; i < 30; i++)
        {
            Directory.CreateDirectory(_factory.Storage.PathOf($"empty/{i:D2}"));
        }

        _factory.Storage.WriteRandom("empty/99/last.bin", 1);
        var root = _factory.Services.GetRequiredService<LocalRoot>().FullPath;
        var canonicalRoot = CanonicalPath.Resolve(root)!;
        string? cursor = null;
        var found = new List<string>();
        var pages = 0;
        do
        {
            var request = new ListRequest("", cursor, 10, ListQuery.MaxNameBytesPerPage);
            var page = new FileTreeWalk(canonicalRoot, request, (name, path) => new StoredObject(name, 1, DateTimeOffset.UnixEpoch, "\"e\""), TestTimeout.Token, entryBudget: 5).Run(root);
            found.AddRange(page.Objects.Select(f => f.Name));
            cursor = page.NextCursor;
            pages++;
        }
        while (cursor is not null && pages < 100);

        Assert.Equal(["empty/99/last.bin"], found);
        Assert.InRange(pages, 5, 40);
    }

    [Fact]
    public async Task Rest_Pages_With_A_Link_Header_That_Keeps_The_Prefix_And_Ends_On_The_Last_Page()
    {
        var names = Enumerable.Range(0, 12).Select(i => $"r/{i:D2}.txt").ToList();
        names.ForEach(n => _factory.Storage.WriteRandom(n, 1));
        _factory.Storage.WriteRandom("s.txt", 1);
        using var client = _factory.CreateClient();

        var listed = new List<string>();
        var url = "/api/files?prefix=r%2F&pageSize=5";
        var pages = 0;
        while (url is not null)
        {
            using var response = await client.GetAsync(url, TestTimeout.Token);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            listed.AddRange((await response.Content.ReadFromJsonAsync<List<Named>>(TestTimeout.Token))!.Select(f => f.Name));
            url = response.Headers.TryGetValues("Link", out var links) ? NextLink(links.Single()) : null;
            pages++;
        }

        Assert.Equal(names, listed);
        Assert.Equal(3, pages);
    }

    [Fact]
    public async Task Rest_Refuses_A_Foreign_Page_Token_And_A_Negative_Page_Size_With_A_Problem()
    {
        using var client = _factory.CreateClient();

        await Problems.AssertAsync(await client.GetAsync("/api/files?pageToken=garbage", TestTimeout.Token), HttpStatusCode.BadRequest);
        await Problems.AssertAsync(await client.GetAsync("/api/files?pageSize=-1", TestTimeout.Token), HttpStatusCode.BadRequest);
    }

    private async Task<(List<string> Names, int Pages)> ListAllAsync(string prefix, int pageSize)
    {
        var names = new List<string>();
        string? token = null;
        var pages = 0;
        do
        {
            var page = await Files.ListAsync(Caller.ForKey("test", Scopes.All), new ListQuery(prefix, pageSize, token), TestTimeout.Token);
            names.AddRange(page.Files.Select(f => f.Name));
            token = page.NextPageToken;
            pages++;
        }
        while (token is not null && pages < 10_000);

        return (names, pages);
    }

    // RFC 8288: <uri>; rel="next"
    private static string? NextLink(string header) =>
        header.EndsWith("rel=\"next\"", StringComparison.Ordinal) ? header[1..header.IndexOf('>', StringComparison.Ordinal)] : null;

    private sealed record Named(string Name);

    public void Dispose() => _factory.Dispose();
}
