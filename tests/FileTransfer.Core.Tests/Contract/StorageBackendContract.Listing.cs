using System.Text;

namespace FileTransfer.Core.Tests.Contract;

public abstract partial class StorageBackendContract
{
    /// <summary>
    /// Names whose order tells code point order from UTF-16 order (U+FF5E sorts before U+1F600 by
    /// code point, after its surrogates in UTF-16) and '/' from the characters either side of it
    /// (' ' '-' '.' before it, digits and letters after), with upper case, folders and non-ASCII.
    /// </summary>
    private static readonly string[] OrderedNames =
    [
        "A.txt", "B", "Z/z.txt", "a b", "a-b", "a.b", "a/b", "a/c/d.txt", "a/cat.txt", "a0", "ab", "z~", "\u00E9.txt",
        "x\uFF5E", "x\U0001F600", "y\uFF5E/1", "y\U0001F600/1", "\uFF5E", "\U0001F600",
    ];

    [Fact]
    public async Task Listing_Is_In_Code_Point_Order_And_Describes_Each_Current_Version()
    {
        var committed = new Dictionary<string, CommittedObject>();
        foreach (var name in OrderedNames)
        {
            committed[name] = await StoreAsync(name, new byte[name.Length]);
        }

        var listed = (await ListPagesAsync("")).SelectMany(p => p.Objects).ToList();

        var expected = ByUtf8Bytes(OrderedNames);
        Assert.NotEqual(expected, OrderedNames.Order(StringComparer.Ordinal)); // UTF-16 order would fail this test
        Assert.Equal(expected, listed.Select(o => o.Name));
        Assert.All(listed, o => Assert.Equal((committed[o.Name].Object.ETag, (long)o.Name.Length), (o.ETag, o.Size)));
    }

    [Theory]
    [InlineData("")]
    [InlineData("a")]
    [InlineData("a/")]
    [InlineData("a/c")]
    [InlineData("A")]
    [InlineData("x")]
    [InlineData("y\U0001F600")]
    [InlineData("nothing")]
    public async Task Listing_Shows_Only_Names_That_Start_With_The_Prefix(string prefix)
    {
        foreach (var name in OrderedNames)
        {
            await StoreAsync(name, [1]);
        }

        var listed = await ListNamesAsync(prefix);

        Assert.Equal(ByUtf8Bytes(OrderedNames.Where(n => n.StartsWith(prefix, StringComparison.Ordinal))), listed);
    }

    [Theory]
    [InlineData(1, "")]
    [InlineData(2, "")]
    [InlineData(7, "")]
    [InlineData(1000, "")]
    [InlineData(1, "n/")]
    [InlineData(2, "n/")]
    [InlineData(7, "n/")]
    [InlineData(1000, "n/")]
    public async Task Pages_Followed_Until_The_Cursor_Is_Null_Concatenate_To_The_Whole_Listing(int pageSize, string prefix)
    {
        var names = OrderedNames
            .Concat(Enumerable.Range(0, 20).Select(i => $"n/{i:D2}.bin"))
            .Concat(Enumerable.Range(0, 5).Select(i => $"n/sub/{i}.bin"))
            .Concat(["n.bin", "n0/x.bin"])
            .ToArray();
        foreach (var name in names)
        {
            await StoreAsync(name, [1]);
        }

        var pages = await ListPagesAsync(prefix, pageSize);

        var listed = pages.SelectMany(p => p.Objects).Select(o => o.Name).ToList();
        Assert.Equal(listed.Count, listed.Distinct(StringComparer.Ordinal).Count());
        Assert.Equal(ByUtf8Bytes(names.Where(n => n.StartsWith(prefix, StringComparison.Ordinal))), listed);
        Assert.All(pages, p => Assert.InRange(p.Objects.Count, 0, pageSize));
        Assert.Null(pages[^1].NextCursor);
    }

    [Fact]
    public async Task An_Empty_Store_Lists_One_Empty_Last_Page()
    {
        var page = await Backend.ListAsync(new ListRequest("", null, 10, ListQuery.MaxNameBytesPerPage), Token);

        Assert.Empty(page.Objects);
        Assert.Null(page.NextCursor);
    }

    [Fact]
    public async Task A_Page_Ends_Before_The_Name_That_Would_Pass_Its_Byte_Budget()
    {
        // Ten names of 20 UTF-8 bytes; a budget of 50 bytes holds two of them.
        var names = Enumerable.Range(0, 10).Select(i => $"m/{i:D2}-{new string('x', 15)}").ToArray();
        Assert.All(names, n => Assert.Equal(20, Encoding.UTF8.GetByteCount(n)));
        foreach (var name in names)
        {
            await StoreAsync(name, [1]);
        }

        var pages = await ListPagesAsync("", limit: 1000, maxNameBytes: 50);

        Assert.Equal(names, pages.SelectMany(p => p.Objects).Select(o => o.Name));
        Assert.All(pages, p => Assert.True(
            p.Objects.Count <= 1 || p.Objects.Sum(o => Encoding.UTF8.GetByteCount(o.Name)) <= 50,
            $"A page of {p.Objects.Count} names holds {p.Objects.Sum(o => Encoding.UTF8.GetByteCount(o.Name))} bytes of names, past the budget of 50."));
        Assert.True(pages.Count >= 5, $"{pages.Count} pages for 200 bytes of names at 50 bytes a page.");
    }

    [Fact]
    public async Task A_Name_Longer_Than_The_Byte_Budget_Still_Makes_A_Page_Of_Its_Own()
    {
        var names = Enumerable.Range(0, 4).Select(i => $"long/{i}-{new string('y', 40)}").ToArray();
        foreach (var name in names)
        {
            await StoreAsync(name, [1]);
        }

        var pages = await ListPagesAsync("", limit: 1000, maxNameBytes: 5);

        Assert.Equal(names, pages.SelectMany(p => p.Objects).Select(o => o.Name));
        Assert.All(pages.Where(p => p.NextCursor is not null), p => Assert.Single(p.Objects));
    }

    [Fact]
    public async Task Names_That_Fail_The_Name_Rules_Are_Never_Listed()
    {
        string[] hidden =
        [
            ".ft-secret", "h/.ft-upload-x.tmp", "h/.FT-upper", "h/a%41b", "h/bad\u202Ename", "h/a\\b", "h/tab\tname",
            "\uFF0E\uFF0E/inside.bin", "h/\uFF0E", "h/a\uFF0Fb",
        ];
        foreach (var name in hidden)
        {
            Assert.False(FileNames.IsValid(name), name);
            await PlaceAsync(name, [1]);
        }

        await PlaceAsync("h/.hidden", [1]);
        await StoreAsync("h/ok.bin", [1]);

        Assert.Equal(["h/.hidden", "h/ok.bin"], await ListNamesAsync(""));
        Assert.Empty(await ListNamesAsync(".ft-"));
        Assert.Equal(["h/.hidden", "h/ok.bin"], await ListNamesAsync("h/", limit: 1));
    }

    /// <summary>The reference order: UTF-8 bytes compared one by one, as an S3 listing orders its keys.</summary>
    private static List<string> ByUtf8Bytes(IEnumerable<string> names) =>
        [.. names.Order(Comparer<string>.Create((x, y) => Encoding.UTF8.GetBytes(x).AsSpan().SequenceCompareTo(Encoding.UTF8.GetBytes(y))))];
}
