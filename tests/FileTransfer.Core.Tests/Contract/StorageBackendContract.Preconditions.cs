using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Contract;

public abstract partial class StorageBackendContract
{
    [Fact]
    public async Task MustNotExist_Refuses_A_Commit_Over_An_Existing_File_With_FileExists_And_Keeps_It()
    {
        var first = TestBytes.Random(1000);
        var v1 = await StoreAsync("cond/file.bin", first);
        var second = TestBytes.Random(1000);
        await using var staged = await StageAsync("cond/file.bin", second);

        await Refusals.AssertAsync(ErrorReason.FileExists, async () => await Backend.CommitAsync([Pending(staged, second, new Preconditions(MustNotExist: true))], Token));

        await AssertHoldsAsync("cond/file.bin", first, v1.Object.ETag);
    }

    [Fact]
    public async Task MustNotExist_Lets_A_Commit_Of_A_New_Name_Through()
    {
        var source = TestBytes.Random(1000);

        var committed = await StoreAsync("cond/new.bin", source, new Preconditions(MustNotExist: true));

        Assert.False(committed.Replaced);
        await AssertHoldsAsync("cond/new.bin", source, committed.Object.ETag);
    }

    [Fact]
    public async Task IfMatch_With_The_Current_ETag_Lets_The_Replace_Through()
    {
        var v1 = await StoreAsync("cond/file.bin", TestBytes.Random(1000));
        var second = TestBytes.Random(1000);

        var v2 = await StoreAsync("cond/file.bin", second, Preconditions.IfMatches(v1.Object.ETag));

        Assert.True(v2.Replaced);
        await AssertHoldsAsync("cond/file.bin", second, v2.Object.ETag);
    }

    [Fact]
    public async Task IfMatch_With_Any_Of_Several_ETags_Including_The_Current_One_Lets_The_Replace_Through()
    {
        var v1 = await StoreAsync("cond/file.bin", TestBytes.Random(1000));
        var second = TestBytes.Random(1000);

        var v2 = await StoreAsync("cond/file.bin", second, new Preconditions(IfMatch: ["\"not-this-one\"", v1.Object.ETag]));

        await AssertHoldsAsync("cond/file.bin", second, v2.Object.ETag);
    }

    [Fact]
    public async Task IfMatch_With_A_Stale_ETag_Is_EtagMismatch_And_Nothing_Becomes_Visible()
    {
        var v1 = await StoreAsync("cond/file.bin", TestBytes.Random(1000));
        var second = TestBytes.Random(1000);
        var v2 = await StoreAsync("cond/file.bin", second);
        var third = TestBytes.Random(1000);
        await using var staged = await StageAsync("cond/file.bin", third);

        await Refusals.AssertAsync(ErrorReason.EtagMismatch, async () => await Backend.CommitAsync([Pending(staged, third, Preconditions.IfMatches(v1.Object.ETag))], Token));

        await AssertHoldsAsync("cond/file.bin", second, v2.Object.ETag);
    }

    [Fact]
    public async Task IfMatch_With_An_ETag_Is_EtagMismatch_For_A_Missing_Name_And_Nothing_Becomes_Visible()
    {
        var gone = await StoreAsync("cond/gone.bin", [1]);
        await Backend.DeleteAsync("cond/gone.bin", Preconditions.None, Token);
        await using var staged = await StageAsync("cond/gone.bin", [2]);

        await Refusals.AssertAsync(ErrorReason.EtagMismatch, async () => await Backend.CommitAsync([Pending(staged, [2], Preconditions.IfMatches(gone.Object.ETag))], Token));

        await AssertAbsentAsync("cond/gone.bin");
    }

    [Fact]
    public async Task IfMatch_Any_Lets_A_Replace_Of_An_Existing_File_Through()
    {
        await StoreAsync("cond/file.bin", [1]);

        var replaced = await StoreAsync("cond/file.bin", [2], Preconditions.IfMatches(EntityTags.Any));

        Assert.True(replaced.Replaced);
        await AssertHoldsAsync("cond/file.bin", [2], replaced.Object.ETag);
    }

    [Fact]
    public async Task IfMatch_Any_Is_EtagMismatch_For_A_Missing_Name_And_Nothing_Becomes_Visible()
    {
        await using var staged = await StageAsync("cond/missing.bin", [1]);

        await Refusals.AssertAsync(ErrorReason.EtagMismatch, async () => await Backend.CommitAsync([Pending(staged, [1], Preconditions.IfMatches(EntityTags.Any))], Token));

        await AssertAbsentAsync("cond/missing.bin");
        Assert.Empty(await ListNamesAsync(""));
    }

    [Fact]
    public async Task Two_Writers_Committing_With_IfMatch_Of_The_Same_ETag_Exactly_One_Wins()
    {
        for (var round = 0; round < 25; round++)
        {
            var v1 = await StoreAsync("duel/file.bin", TestBytes.Random(1000));
            var sources = new[] { TestBytes.Random(1000), TestBytes.Random(1000) };
            await using var a = await StageAsync("duel/file.bin", sources[0]);
            await using var b = await StageAsync("duel/file.bin", sources[1]);

            var outcomes = await RaceAsync(
                () => Backend.CommitAsync([Pending(a, sources[0], Preconditions.IfMatches(v1.Object.ETag))], Token),
                () => Backend.CommitAsync([Pending(b, sources[1], Preconditions.IfMatches(v1.Object.ETag))], Token));

            var winner = Assert.Single(outcomes, o => o.Committed is not null);
            var loser = Assert.Single(outcomes, o => o.Refused is not null);
            Assert.Equal(ErrorReason.EtagMismatch, loser.Refused!.Reason);
            await AssertHoldsAsync("duel/file.bin", sources[winner.Index], winner.Committed!.Object.ETag);
        }
    }

    [Fact]
    public async Task Two_Writers_Of_A_New_Name_With_MustNotExist_Exactly_One_Wins()
    {
        for (var round = 0; round < 25; round++)
        {
            var name = $"duel/new-{round}.bin";
            var sources = new[] { TestBytes.Random(1000), TestBytes.Random(1000) };
            await using var a = await StageAsync(name, sources[0]);
            await using var b = await StageAsync(name, sources[1]);
            var mustNotExist = new Preconditions(MustNotExist: true);

            var outcomes = await RaceAsync(
                () => Backend.CommitAsync([Pending(a, sources[0], mustNotExist)], Token),
                () => Backend.CommitAsync([Pending(b, sources[1], mustNotExist)], Token));

            var winner = Assert.Single(outcomes, o => o.Committed is not null);
            var loser = Assert.Single(outcomes, o => o.Refused is not null);
            Assert.Equal(ErrorReason.FileExists, loser.Refused!.Reason);
            await AssertHoldsAsync(name, sources[winner.Index], winner.Committed!.Object.ETag);
        }
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    public async Task A_Commit_Of_Several_Writes_Where_One_Precondition_Fails_Stores_None(int failing)
    {
        var stale = await StoreAsync("all/b.bin", [0]);
        var current = await StoreAsync("all/b.bin", [1]);
        var existingC = await StoreAsync("all/c.bin", [2]);
        string[] names = ["all/a.bin", "all/b.bin", "all/c.bin"];
        Preconditions[] holding = [new(MustNotExist: true), Preconditions.IfMatches(current.Object.ETag), Preconditions.IfMatches(existingC.Object.ETag)];
        Preconditions[] failingOnes = [Preconditions.IfMatches(EntityTags.Any), Preconditions.IfMatches(stale.Object.ETag), new(MustNotExist: true)];
        var staged = new IStagedObject[names.Length];
        var sources = names.Select(_ => TestBytes.Random(Block + 1)).ToArray();
        for (var i = 0; i < names.Length; i++)
        {
            staged[i] = await StageAsync(names[i], sources[i]);
        }

        try
        {
            var commits = names.Select((_, i) => Pending(staged[i], sources[i], i == failing ? failingOnes[i] : holding[i])).ToArray();

            var refused = await Assert.ThrowsAsync<FileTransferException>(async () => await Backend.CommitAsync(commits, Token));

            Assert.Contains(refused.Reason, new[] { ErrorReason.FileExists, ErrorReason.EtagMismatch });
            await AssertAbsentAsync("all/a.bin");
            await AssertHoldsAsync("all/b.bin", [1], current.Object.ETag);
            await AssertHoldsAsync("all/c.bin", [2], existingC.Object.ETag);
            Assert.Equal(["all/b.bin", "all/c.bin"], await ListNamesAsync("all/"));
        }
        finally
        {
            foreach (var write in staged)
            {
                await write.DisposeAsync();
            }
        }

        // Discarding the refused writes changes nothing either.
        await AssertAbsentAsync("all/a.bin");
        await AssertHoldsAsync("all/b.bin", [1], current.Object.ETag);
    }

    [Fact]
    public async Task Delete_Of_A_Missing_Name_Is_False_Whatever_Its_Preconditions()
    {
        await StoreAsync("del/other.bin", [1]);

        Assert.Null(await Backend.DeleteAsync("del/missing.bin", Preconditions.None, Token));
        Assert.Null(await Backend.DeleteAsync("del", Preconditions.None, Token));

        // RFC 9110 13.2.1: a request that would fail without its conditions (404) ignores them.
        Assert.Null(await Backend.DeleteAsync("del/missing.bin", Preconditions.IfMatches("\"any\""), Token));
        Assert.Null(await Backend.DeleteAsync("del/missing.bin", Preconditions.IfMatches(EntityTags.Any), Token));
        Assert.Null(await Backend.DeleteAsync("del/missing.bin", new Preconditions(MustNotExist: true), Token));
        Assert.Equal(["del/other.bin"], await ListNamesAsync(""));
    }

    [Fact]
    public async Task Delete_Removes_The_Current_Version_From_Stat_Open_And_Listing()
    {
        await StoreAsync("del/file.bin", TestBytes.Random(1000));
        await StoreAsync("del/other.bin", [1]);

        Assert.NotNull(await Backend.DeleteAsync("del/file.bin", Preconditions.None, Token));

        await AssertAbsentAsync("del/file.bin");
        Assert.Equal(["del/other.bin"], await ListNamesAsync(""));
        Assert.Null(await Backend.DeleteAsync("del/file.bin", Preconditions.None, Token));
    }

    [Fact]
    public async Task Delete_With_IfMatch_Of_The_Current_ETag_Removes_It()
    {
        var v1 = await StoreAsync("del/file.bin", [1]);

        Assert.NotNull(await Backend.DeleteAsync("del/file.bin", Preconditions.IfMatches(v1.Object.ETag), Token));

        await AssertAbsentAsync("del/file.bin");
    }

    [Fact]
    public async Task Delete_With_A_Stale_IfMatch_Is_EtagMismatch_And_The_File_Stays()
    {
        var v1 = await StoreAsync("del/file.bin", [1]);
        var second = TestBytes.Random(1000);
        var v2 = await StoreAsync("del/file.bin", second);

        await Refusals.AssertAsync(ErrorReason.EtagMismatch, async () => await Backend.DeleteAsync("del/file.bin", Preconditions.IfMatches(v1.Object.ETag), Token));

        await AssertHoldsAsync("del/file.bin", second, v2.Object.ETag);
    }

    [Fact]
    public async Task Delete_With_MustNotExist_Of_An_Existing_File_Is_FileExists_And_The_File_Stays()
    {
        var v1 = await StoreAsync("del/file.bin", [1]);

        await Refusals.AssertAsync(ErrorReason.FileExists, async () => await Backend.DeleteAsync("del/file.bin", new Preconditions(MustNotExist: true), Token));

        await AssertHoldsAsync("del/file.bin", [1], v1.Object.ETag);
    }

    /// <summary>Starts both actions together; which one the backend serves first is up to it.</summary>
    private static async Task<(int Index, CommittedObject? Committed, FileTransferException? Refused)[]> RaceAsync(
        Func<ValueTask<IReadOnlyList<CommittedObject>>> first,
        Func<ValueTask<IReadOnlyList<CommittedObject>>> second)
    {
        var start = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var racing = new[] { first, second }.Select((commit, index) => Task.Run(async () =>
        {
            await start.Task;
            try
            {
                return (index, Assert.Single(await commit()), (FileTransferException?)null);
            }
            catch (FileTransferException refused)
            {
                return (index, (CommittedObject?)null, refused);
            }
        })).ToArray();
        start.SetResult();
        return await Task.WhenAll(racing);
    }
}
