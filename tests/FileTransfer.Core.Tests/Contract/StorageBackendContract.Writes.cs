using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Contract;

public abstract partial class StorageBackendContract
{
    [Fact]
    public async Task A_Staged_Write_Of_A_New_Name_Is_Invisible_Until_Its_Commit()
    {
        var source = TestBytes.Random(Block + 1);
        await using var staged = await Backend.StageAsync("new/file.bin", source.Length, Token);
        await staged.WriteAsync(source.AsMemory(0, Block), Token);

        await AssertAbsentAsync("new/file.bin");
        Assert.Empty(await ListNamesAsync(""));

        await staged.WriteAsync(source.AsMemory(Block), Token);
        await staged.SealAsync(Token);

        await AssertAbsentAsync("new/file.bin");
        Assert.Empty(await ListNamesAsync(""));

        var committed = Assert.Single(await Backend.CommitAsync([Pending(staged, source)], Token));

        await AssertHoldsAsync("new/file.bin", source, committed.Object.ETag);
        Assert.Equal(["new/file.bin"], await ListNamesAsync(""));
    }

    [Fact]
    public async Task A_Staged_Replacement_Is_Invisible_Until_Its_Commit()
    {
        var first = TestBytes.Random(1000);
        var second = TestBytes.Random(2000);
        var v1 = await StoreAsync("replace/file.bin", first);
        await using var staged = await StageAsync("replace/file.bin", second);

        await AssertHoldsAsync("replace/file.bin", first, v1.Object.ETag);
        var listed = Assert.Single((await ListPagesAsync("")).SelectMany(p => p.Objects));
        Assert.Equal((v1.Object.ETag, 1000L), (listed.ETag, listed.Size));

        var v2 = Assert.Single(await Backend.CommitAsync([Pending(staged, second)], Token));

        await AssertHoldsAsync("replace/file.bin", second, v2.Object.ETag);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Disposing_An_Uncommitted_Write_Of_A_New_Name_Leaves_Nothing(bool sealedFirst)
    {
        var source = TestBytes.Random(Block + 1);
        var staged = await Backend.StageAsync("aborted/deep/file.bin", source.Length, Token);
        await staged.WriteAsync(source, Token);
        if (sealedFirst)
        {
            await staged.SealAsync(Token);
        }

        await staged.DisposeAsync();

        await AssertAbsentAsync("aborted/deep/file.bin");
        Assert.Empty(await ListNamesAsync(""));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Disposing_An_Uncommitted_Replacement_Keeps_The_Previous_Version(bool sealedFirst)
    {
        var first = TestBytes.Random(Block + 1);
        var v1 = await StoreAsync("aborted/file.bin", first);
        var staged = await Backend.StageAsync("aborted/file.bin", first.Length, Token);
        await staged.WriteAsync(TestBytes.Random(first.Length), Token);
        if (sealedFirst)
        {
            await staged.SealAsync(Token);
        }

        await staged.DisposeAsync();

        await AssertHoldsAsync("aborted/file.bin", first, v1.Object.ETag);
        Assert.Equal(["aborted/file.bin"], await ListNamesAsync(""));
    }

    [Fact]
    public async Task Disposing_A_Committed_Write_Keeps_What_It_Committed()
    {
        var source = TestBytes.Random(1000);
        var staged = await StageAsync("kept/file.bin", source);
        var committed = Assert.Single(await Backend.CommitAsync([Pending(staged, source)], Token));

        await staged.DisposeAsync();

        await AssertHoldsAsync("kept/file.bin", source, committed.Object.ETag);
    }

    [Fact]
    public async Task A_Commit_Reports_Replaced_Only_When_A_Version_Existed()
    {
        var first = await StoreAsync("replaced/file.bin", [1]);
        var second = await StoreAsync("replaced/file.bin", [2]);
        Assert.NotNull(await Backend.DeleteAsync("replaced/file.bin", Preconditions.None, Token));
        var third = await StoreAsync("replaced/file.bin", [3]);

        Assert.False(first.Replaced);
        Assert.True(second.Replaced);
        Assert.False(third.Replaced);
        await AssertHoldsAsync("replaced/file.bin", [3], third.Object.ETag);
    }

    [Fact]
    public async Task The_ETag_Changes_On_Every_Replace_Even_With_Same_Size_Content_In_Quick_Succession()
    {
        var etags = new List<string>();
        for (var i = 0; i < 20; i++)
        {
            var content = TestBytes.Random(16);
            var committed = await StoreAsync("etag/file.bin", content);
            Assert.Equal(committed.Object.ETag, (await Backend.StatAsync("etag/file.bin", Token))?.ETag);
            etags.Add(committed.Object.ETag);
        }

        Assert.Equal(etags.Count, etags.Distinct(StringComparer.Ordinal).Count());
        Assert.All(etags, etag => Assert.Matches("^\"[^\"]+\"$", etag));
    }

    [Fact]
    public async Task Concurrent_Unconditional_Writers_Of_One_Name_Leave_One_Whole_Version()
    {
        var sources = Enumerable.Range(0, 6).Select(_ => TestBytes.Random(Block + 7)).ToArray();
        var staged = new IStagedObject[sources.Length];
        for (var i = 0; i < sources.Length; i++)
        {
            staged[i] = await StageAsync("race/file.bin", sources[i]);
        }

        try
        {
            var start = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            var racing = sources.Select((source, i) => Task.Run(async () =>
            {
                await start.Task;
                return Assert.Single(await Backend.CommitAsync([Pending(staged[i], source)], Token));
            })).ToArray();
            start.SetResult();
            var commits = await Task.WhenAll(racing);

            var current = await ReadCurrentAsync("race/file.bin");
            Assert.NotNull(current);
            var winner = Array.FindIndex(commits, c => c.Object.ETag == current.Value.Version.ETag);
            Assert.True(winner >= 0, "The current version is none of the committed ones.");
            Assert.Equal(TestBytes.Sha256(sources[winner]), TestBytes.Sha256(current.Value.Bytes));
            Assert.Equal(sources.Length, commits.Select(c => c.Object.ETag).Distinct(StringComparer.Ordinal).Count());
            Assert.Equal(sources.Length - 1, commits.Count(c => c.Replaced));
        }
        finally
        {
            foreach (var write in staged)
            {
                await write.DisposeAsync();
            }
        }
    }

    [Fact]
    public async Task A_Commit_Of_Several_Writes_Stores_Every_One_In_Order()
    {
        var existing = await StoreAsync("many/b.bin", [0]);
        var sources = new[] { TestBytes.Random(10), TestBytes.Random(Block + 1), TestBytes.Random(0) };
        string[] names = ["many/a.bin", "many/b.bin", "many/c/d.bin"];
        var staged = new IStagedObject[names.Length];
        for (var i = 0; i < names.Length; i++)
        {
            staged[i] = await StageAsync(names[i], sources[i]);
        }

        var committed = await Backend.CommitAsync([.. staged.Select((s, i) => Pending(s, sources[i]))], Token);

        Assert.Equal(names, committed.Select(c => c.Object.Name));
        Assert.Equal([false, true, false], committed.Select(c => c.Replaced));
        Assert.NotEqual(existing.Object.ETag, committed[1].Object.ETag);
        for (var i = 0; i < names.Length; i++)
        {
            await AssertHoldsAsync(names[i], sources[i], committed[i].Object.ETag);
            await staged[i].DisposeAsync();
        }
    }
}
