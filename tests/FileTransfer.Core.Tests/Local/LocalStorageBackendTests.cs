using System.Security.Cryptography;
using FileTransfer.Core.Tests.Infrastructure;
using FileTransfer.Storage.Local;

namespace FileTransfer.Core.Tests.Local;

/// <summary>
/// What only a disk has and the contract cannot say: folders in the way of a name, where a staged
/// write lives and what it leaves behind, and links that lead nowhere. (Links out of the root, the
/// sweep, sidecars and the walk's bounds are tested with the server, in its Storage and Security folders.)
/// </summary>
public sealed class LocalStorageBackendTests : IDisposable
{
    private readonly TempFolder _root = new();
    private readonly LocalStorageBackend _backend;

    public LocalStorageBackendTests()
    {
        _backend = LocalBackends.Create(_root.Path);
    }

    private static CancellationToken Token => TestTimeout.Token;

    [Fact]
    public async Task Staging_A_Name_That_Is_A_Folder_Is_NameConflict_Before_Any_Byte_And_Leaves_Nothing()
    {
        _root.Write("dir/inner.bin", [1]);
        var before = _root.Entries();

        await Refusals.AssertAsync(ErrorReason.NameConflict, async () => await _backend.StageAsync("dir", 10, Token));

        Assert.Equal(before, _root.Entries());
        Assert.Null(await _backend.StatAsync("dir", Token));
        Assert.Null(await _backend.OpenAsync("dir", Token));
    }

    [Theory]
    [InlineData("file.bin/x")]
    [InlineData("file.bin/x/y.bin")]
    public async Task Staging_Below_A_Name_That_Is_A_File_Is_NameConflict_Before_Any_Byte_And_Keeps_The_File(string name)
    {
        var bytes = TestBytes.Random(1000);
        _root.Write("file.bin", bytes);
        var before = _root.Entries();

        await Refusals.AssertAsync(ErrorReason.NameConflict, async () => await _backend.StageAsync(name, null, Token));

        Assert.Equal(before, _root.Entries());
        Assert.Equal(bytes, await File.ReadAllBytesAsync(_root.PathOf("file.bin"), Token));
    }

    [Fact]
    public async Task A_Staged_Write_Is_A_Reserved_Temporary_File_In_The_Targets_Folder_Gone_With_The_Folders_It_Made_On_Dispose()
    {
        _root.Write("a/existing.bin", [1]);
        var bytes = TestBytes.Random(Upload.BlockSize + 1);

        var staged = await _backend.StageAsync("a/b/c/file.bin", bytes.Length, Token);
        await staged.WriteAsync(bytes, Token);
        await staged.SealAsync(Token);

        var temp = Assert.Single(_root.Entries(), e => e.StartsWith("a/b/c/", StringComparison.Ordinal));
        Assert.StartsWith(FileNames.ReservedPrefix, Path.GetFileName(temp), StringComparison.Ordinal);
        Assert.False(FileNames.IsValid(temp));
        Assert.Equal(bytes, await File.ReadAllBytesAsync(_root.PathOf(temp), Token));

        await staged.DisposeAsync();

        Assert.Equal(["a", "a/existing.bin"], _root.Entries());
    }

    [Fact]
    public async Task A_Commit_Renames_The_Temporary_File_Over_The_Name_And_Leaves_No_Temporary_File()
    {
        var first = TestBytes.Random(1000);
        var second = TestBytes.Random(2000);
        _root.Write("f/file.bin", first);
        await using var staged = await _backend.StageAsync("f/file.bin", second.Length, Token);
        await staged.WriteAsync(second, Token);
        await staged.SealAsync(Token);

        var committed = Assert.Single(await _backend.CommitAsync([new PendingCommit(staged, Preconditions.None, SHA256.HashData(second))], Token));

        Assert.True(committed.Replaced);
        Assert.Equal(second, await File.ReadAllBytesAsync(_root.PathOf("f/file.bin"), Token));
        Assert.Equal(["f", "f/file.bin"], _root.Entries().Where(e => !e.StartsWith(FileNames.ReservedPrefix, StringComparison.Ordinal)));
        Assert.DoesNotContain(_root.Entries(), e => Path.GetFileName(e).StartsWith(LocalStorageBackend.TempFilePrefix, StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_Declared_Length_Beyond_The_Free_Space_Is_StorageFull_At_Once_And_Leaves_No_Folder()
    {
        var free = new DriveInfo(_root.Path).AvailableFreeSpace;

        await Refusals.AssertAsync(ErrorReason.StorageFull, async () => await _backend.StageAsync("new/deep/huge.bin", free + (1L << 30), Token));

        Assert.Empty(_root.Entries());
    }

    [Fact]
    public async Task A_Link_Inside_The_Root_That_Leads_Nowhere_Is_No_File_And_An_Upload_Replaces_The_Link()
    {
        File.CreateSymbolicLink(_root.PathOf("dangling.bin"), "missing-target.bin");

        Assert.Null(await _backend.StatAsync("dangling.bin", Token));
        Assert.Null(await _backend.OpenAsync("dangling.bin", Token));
        Assert.Empty((await _backend.ListAsync(new ListRequest("", null, 100, ListQuery.MaxNameBytesPerPage), Token)).Objects);
        Assert.Null(await _backend.DeleteAsync("dangling.bin", Preconditions.None, Token));

        var bytes = TestBytes.Random(1000);
        await using var staged = await _backend.StageAsync("dangling.bin", bytes.Length, Token);
        await staged.WriteAsync(bytes, Token);
        await staged.SealAsync(Token);
        var committed = Assert.Single(await _backend.CommitAsync([new PendingCommit(staged, new Preconditions(MustNotExist: true), SHA256.HashData(bytes))], Token));

        // The commit is a rename over the name: the link itself is replaced, its target never created.
        Assert.False(committed.Replaced);
        Assert.Null(new FileInfo(_root.PathOf("dangling.bin")).LinkTarget);
        Assert.False(File.Exists(_root.PathOf("missing-target.bin")));
        await using var opened = await _backend.OpenAsync("dangling.bin", Token);
        await using var read = await opened!.OpenReadAsync(0, opened.Object.Size, Token);
        Assert.Equal(bytes, await TestBytes.ReadToEndAsync(read, Token));
    }

    [Fact]
    public async Task A_Link_To_A_File_Inside_The_Root_Serves_The_Target_And_An_Upload_Replaces_The_Link_Not_The_Target()
    {
        var bytes = TestBytes.Random(5000);
        _root.Write("data/target.bin", bytes);
        File.CreateSymbolicLink(_root.PathOf("alias.bin"), Path.Join("data", "target.bin"));

        var stat = await _backend.StatAsync("alias.bin", Token);
        await using (var opened = await _backend.OpenAsync("alias.bin", Token))
        {
            await using var read = await opened!.OpenReadAsync(0, opened.Object.Size, Token);
            Assert.Equal(5000, stat?.Size);
            Assert.Equal(stat?.ETag, opened.Object.ETag);
            Assert.Equal(bytes, await TestBytes.ReadToEndAsync(read, Token));
        }

        var replacement = TestBytes.Random(100);
        await using var staged = await _backend.StageAsync("alias.bin", replacement.Length, Token);
        await staged.WriteAsync(replacement, Token);
        await staged.SealAsync(Token);
        var committed = Assert.Single(await _backend.CommitAsync([new PendingCommit(staged, Preconditions.IfMatches(stat!.ETag), SHA256.HashData(replacement))], Token));

        Assert.True(committed.Replaced);
        Assert.Null(new FileInfo(_root.PathOf("alias.bin")).LinkTarget);
        Assert.Equal(replacement, await File.ReadAllBytesAsync(_root.PathOf("alias.bin"), Token));
        Assert.Equal(bytes, await File.ReadAllBytesAsync(_root.PathOf("data/target.bin"), Token));
    }

    public void Dispose() => _root.Dispose();
}
