using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Contract;

public abstract partial class StorageBackendContract
{
    private const int Block = Upload.BlockSize;

    [Theory]
    [InlineData("missing.bin")]
    [InlineData("no/such/folder/missing.bin")]
    public async Task Stat_And_Open_Of_A_Missing_Name_Are_Null(string name)
    {
        await StoreAsync("present.bin", [1]);

        Assert.Null(await Backend.StatAsync(name, Token));
        Assert.Null(await Backend.OpenAsync(name, Token));
    }

    [Fact]
    public async Task Stat_And_Open_Of_A_Name_That_Only_Begins_Other_Names_Are_Null()
    {
        await StoreAsync("dir/file.bin", [1]);

        Assert.Null(await Backend.StatAsync("dir", Token));
        Assert.Null(await Backend.OpenAsync("dir", Token));
        Assert.Null(await Backend.StatAsync("dir/file", Token));
    }

    public static TheoryData<int, bool> EdgeSizes => new()
    {
        { 0, true },
        { 1, true },
        { Block - 1, true },
        { Block, false },
        { Block + 1, true },
        { (5 * 1024 * 1024) + 12_345, true },
        { (5 * 1024 * 1024) + 12_345, false },
    };

    [Theory]
    [MemberData(nameof(EdgeSizes))]
    public async Task Stored_Bytes_Open_Exactly_As_Written_At_Edge_Sizes(int size, bool declareLength)
    {
        var source = TestBytes.Random(size);

        var committed = await StoreAsync("edge/file.bin", source, declareLength: declareLength);

        Assert.Equal("edge/file.bin", committed.Object.Name);
        Assert.Equal(size, committed.Object.Size);
        Assert.False(committed.Replaced);
        await AssertHoldsAsync("edge/file.bin", source, committed.Object.ETag);
    }

    [Fact]
    public async Task A_Staged_Write_Knows_Its_Name_And_Counts_Its_Bytes()
    {
        var source = TestBytes.Random(Block + 5);
        await using var staged = await Backend.StageAsync("count/file.bin", null, Token);
        Assert.Equal("count/file.bin", staged.Name);
        Assert.Equal(0, staged.Length);

        await staged.WriteAsync(source.AsMemory(0, Block), Token);
        Assert.Equal(Block, staged.Length);
        await staged.WriteAsync(source.AsMemory(Block), Token);
        Assert.Equal(Block + 5, staged.Length);
    }

    private const int RangedSize = (2 * Block) + 1000;

    [Theory]
    [InlineData(0, 0)]
    [InlineData(0, 1)]
    [InlineData(0, RangedSize)]
    [InlineData(1, RangedSize - 1)]
    [InlineData(RangedSize - 1, 1)]
    [InlineData(RangedSize, 0)]
    [InlineData(Block - 1, 2)]
    [InlineData(Block, Block)]
    [InlineData(Block + 1, Block + 999)]
    [InlineData(12_345, 300_000)]
    public async Task Any_Range_Reads_Exactly_Those_Bytes_And_Ends_There(int offset, int count)
    {
        var source = TestBytes.Random(RangedSize);
        await StoreAsync("range/file.bin", source);
        await using var opened = await Backend.OpenAsync("range/file.bin", Token);
        Assert.NotNull(opened);

        var read = await ReadAsync(opened, offset, count);

        Assert.Equal(count, read.Length);
        Assert.Equal(TestBytes.Sha256(source.AsSpan(offset, count)), TestBytes.Sha256(read));
    }

    [Fact]
    public async Task One_Opened_Version_Serves_Several_Ranges_In_Turn()
    {
        var source = TestBytes.Random(RangedSize);
        await StoreAsync("range/turns.bin", source);
        await using var opened = await Backend.OpenAsync("range/turns.bin", Token);
        Assert.NotNull(opened);

        var tail = await ReadAsync(opened, RangedSize - 1000, 1000);
        var head = await ReadAsync(opened, 0, 1000);
        var all = await ReadAsync(opened, 0, RangedSize);

        Assert.Equal(TestBytes.Sha256(source.AsSpan(RangedSize - 1000)), TestBytes.Sha256(tail));
        Assert.Equal(TestBytes.Sha256(source.AsSpan(0, 1000)), TestBytes.Sha256(head));
        Assert.Equal(TestBytes.Sha256(source), TestBytes.Sha256(all));
    }

    [Fact]
    public async Task An_Opened_Version_Keeps_Its_Own_Bytes_After_The_Name_Is_Replaced()
    {
        var first = TestBytes.Random(RangedSize);
        var second = TestBytes.Random(RangedSize);
        var v1 = await StoreAsync("swap/file.bin", first);
        await using var opened = await Backend.OpenAsync("swap/file.bin", Token);
        Assert.NotNull(opened);
        await using var started = await opened.OpenReadAsync(0, RangedSize, Token);
        var head = new byte[1000];
        await started.ReadExactlyAsync(head, Token);

        var v2 = await StoreAsync("swap/file.bin", second);

        Assert.True(v2.Replaced);
        Assert.Equal(v1.Object.ETag, opened.Object.ETag);
        Assert.Equal(RangedSize, opened.Object.Size);
        await AssertOwnBytesOrIOExceptionAsync(first, async () => [.. head, .. await TestBytes.ReadToEndAsync(started, Token)]);
        await AssertOwnBytesOrIOExceptionAsync(first, () => ReadAsync(opened, 0, RangedSize));
        await AssertHoldsAsync("swap/file.bin", second, v2.Object.ETag);
    }

    [Fact]
    public async Task An_Opened_Version_Keeps_Its_Own_Bytes_After_The_Name_Is_Deleted()
    {
        var first = TestBytes.Random(RangedSize);
        var v1 = await StoreAsync("gone/file.bin", first);
        await using var opened = await Backend.OpenAsync("gone/file.bin", Token);
        Assert.NotNull(opened);
        await using var started = await opened.OpenReadAsync(0, RangedSize, Token);
        var head = new byte[1000];
        await started.ReadExactlyAsync(head, Token);

        Assert.NotNull(await Backend.DeleteAsync("gone/file.bin", Preconditions.None, Token));

        Assert.Equal(v1.Object.ETag, opened.Object.ETag);
        await AssertOwnBytesOrIOExceptionAsync(first, async () => [.. head, .. await TestBytes.ReadToEndAsync(started, Token)]);
        await AssertOwnBytesOrIOExceptionAsync(first, () => ReadAsync(opened, 0, RangedSize));
        await AssertAbsentAsync("gone/file.bin");
    }

    [Fact]
    public async Task IsAvailable_Is_True_For_A_Reachable_Store()
    {
        Assert.True(await Backend.IsAvailableAsync(Token));
    }

    /// <summary>
    /// The doc lets a medium that cannot keep a replaced version fail the read (IOException); what it
    /// may never do is return another version's bytes, or fewer or more bytes without failing.
    /// </summary>
    private static async Task AssertOwnBytesOrIOExceptionAsync(byte[] expected, Func<Task<byte[]>> read)
    {
        byte[] bytes;
        try
        {
            bytes = await read();
        }
        catch (IOException)
        {
            return;
        }

        Assert.Equal(TestBytes.Sha256(expected), TestBytes.Sha256(bytes));
    }
}
