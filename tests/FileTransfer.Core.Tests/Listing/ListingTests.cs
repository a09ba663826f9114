using System.Buffers.Text;
using System.Text;
using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Listing;

/// <summary>
/// <see cref="FileOperations.ListAsync"/>: the backend's cursor wrapped in a page token that only
/// the same listing accepts, page sizes, and what the backend is asked for.
/// </summary>
public sealed class ListingTests
{
    private readonly InMemoryBackend _backend = new();

    private static CancellationToken Token => TestTimeout.Token;

    [Theory]
    [InlineData(1, null)]
    [InlineData(2, "")]
    [InlineData(3, "p/")]
    [InlineData(1000, "p/")]
    public async Task Page_Tokens_Carry_The_Backends_Cursor_Until_The_Listing_Ends(int pageSize, string? prefix)
    {
        var names = Enumerable.Range(0, 7).Select(i => $"p/{i}.txt").Append("q.bin").ToArray();
        foreach (var name in names)
        {
            _backend.Place(name, [1]);
        }

        var files = Operations.Over(_backend);
        var listed = new List<FileVersion>();
        string? token = null;
        var pages = 0;
        do
        {
            var page = await files.ListAsync(TestCallers.Full, new ListQuery(prefix, pageSize, token), Token);
            listed.AddRange(page.Files);
            token = page.NextPageToken;
            pages++;
            if (token is not null)
            {
                // The token holds the cursor the backend gave for this page, and is tied to the prefix.
                Assert.Equal(page.Files[^1].Name, PageToken.Decode(token, prefix ?? ""));
            }
        }
        while (token is not null && pages < 100);

        var expected = names.Where(n => n.StartsWith(prefix ?? "", StringComparison.Ordinal)).ToArray();
        Assert.Equal(expected, listed.Select(f => f.Name));
        Assert.Equal((expected.Length + pageSize - 1) / pageSize, pages);
        Assert.All(listed, f => Assert.Equal(f.Name.EndsWith(".txt", StringComparison.Ordinal) ? "text/plain" : "application/octet-stream", f.ContentType));
        Assert.All(_backend.ListRequests.Skip(1), r => Assert.NotNull(r.After));
    }

    [Fact]
    public async Task A_Token_Issued_For_Another_Prefix_Is_InvalidPageRequest_Before_The_Backend_Is_Asked()
    {
        var token = PageToken.Encode("a/", "a/1");
        var files = Operations.Over(_backend);

        await Refusals.AssertAsync(ErrorReason.InvalidPageRequest, async () => await files.ListAsync(TestCallers.Full, new ListQuery("b/", 10, token), Token));
        await Refusals.AssertAsync(ErrorReason.InvalidPageRequest, async () => await files.ListAsync(TestCallers.Full, new ListQuery(null, 10, token), Token));

        Assert.Empty(_backend.ListRequests);
        await files.ListAsync(TestCallers.Full, new ListQuery("a/", 10, token), Token);
        Assert.Equal("a/1", Assert.Single(_backend.ListRequests).After);
    }

    public static TheoryData<string> GarbledTokens => new()
    {
        "garbage!",
        "not base64 at all",
        "%%%%",
        Base64Url.EncodeToString(Encoding.UTF8.GetBytes("not json")),
        Base64Url.EncodeToString(Encoding.UTF8.GetBytes("{}")),
        Base64Url.EncodeToString(Encoding.UTF8.GetBytes("{\"P\":\"\"}")),
        Base64Url.EncodeToString(Encoding.UTF8.GetBytes("{\"C\":\"a\"}")),
        Base64Url.EncodeToString(Encoding.UTF8.GetBytes("[1,2]")),
        Base64Url.EncodeToString(Encoding.UTF8.GetBytes("{\"P\":1,\"C\":2}")),
        Base64Url.EncodeToString([0xFF, 0xFE, 0xFD]),
        PageToken.Encode("", "a")[..^2],
        new string('A', 5000),
    };

    [Theory]
    [MemberData(nameof(GarbledTokens))]
    public async Task A_Garbled_Token_Is_InvalidPageRequest_Before_The_Backend_Is_Asked(string token)
    {
        var files = Operations.Over(_backend);

        await Refusals.AssertAsync(ErrorReason.InvalidPageRequest, async () => await files.ListAsync(TestCallers.Full, new ListQuery("", 10, token), Token));

        Assert.Empty(_backend.ListRequests);
    }

    [Fact]
    public async Task A_Negative_Page_Size_Is_InvalidPageRequest_Before_The_Backend_Is_Asked()
    {
        var files = Operations.Over(_backend);

        await Refusals.AssertAsync(ErrorReason.InvalidPageRequest, async () => await files.ListAsync(TestCallers.Full, new ListQuery(null, -1), Token));
        await Refusals.AssertAsync(ErrorReason.InvalidPageRequest, async () => await files.ListAsync(TestCallers.Full, new ListQuery(null, int.MinValue), Token));

        Assert.Empty(_backend.ListRequests);
    }

    [Theory]
    [InlineData(0, ListQuery.DefaultPageSize)]
    [InlineData(1, 1)]
    [InlineData(ListQuery.MaxPageSize, ListQuery.MaxPageSize)]
    [InlineData(ListQuery.MaxPageSize + 1, ListQuery.MaxPageSize)]
    [InlineData(int.MaxValue, ListQuery.MaxPageSize)]
    public async Task The_Backend_Is_Asked_For_The_Effective_Page_Size_And_The_Name_Byte_Budget(int pageSize, int expected)
    {
        var files = Operations.Over(_backend);

        await files.ListAsync(TestCallers.Full, new ListQuery("x/", pageSize), Token);

        Assert.Equal(new ListRequest("x/", null, expected, ListQuery.MaxNameBytesPerPage), Assert.Single(_backend.ListRequests));
    }
}
