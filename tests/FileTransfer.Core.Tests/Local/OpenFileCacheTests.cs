using System.Security.Cryptography;
using FileTransfer.Core.Tests.Infrastructure;
using FileTransfer.Storage.Local;
using Microsoft.Extensions.Options;
using Microsoft.Extensions.Time.Testing;

namespace FileTransfer.Core.Tests.Local;

/// <summary>
/// The open-file cache lends a kept handle only while the name is still the file it was opened on:
/// every change to the name, ours or another program's, in place or by rename, is read as the new
/// version, and a read already under way keeps its own version whole. Runs on Linux, where the cache is on.
/// </summary>
public sealed class OpenFileCacheTests : IDisposable
{
    private const string Name = "kept.bin";
    private static readonly Func<string, long, DateTime, byte[]?> NoDigest = (_, _, _) => null;

    private readonly TempFolder _root = new();
    private readonly FakeTimeProvider _time = new();

    public void Dispose() => _root.Dispose();

    [Fact]
    public async Task A_Second_Read_Of_The_Same_Version_Uses_The_Kept_Handle()
    {
        using var cache = Cache();
        var bytes = TestBytes.Random(10_000);
        _root.Write(Name, bytes);

        var first = await ReadAsync(cache);
        var second = await ReadAsync(cache);

        Assert.Equal(SHA256.HashData(bytes), SHA256.HashData(first));
        Assert.Equal(SHA256.HashData(bytes), SHA256.HashData(second));
        Assert.Equal(1, cache.Count);
    }

    [Fact]
    public async Task A_File_Renamed_Over_The_Name_By_Another_Program_Is_Read_As_The_New_Version()
    {
        using var cache = Cache();
        _root.Write(Name, TestBytes.Random(4096));
        await ReadAsync(cache);

        var next = TestBytes.Random(4096);
        _root.Write("next.tmp", next);
        File.Move(_root.PathOf("next.tmp"), _root.PathOf(Name), overwrite: true);

        Assert.Equal(SHA256.HashData(next), SHA256.HashData(await ReadAsync(cache)));
    }

    [Fact]
    public async Task A_Write_In_Place_That_Keeps_The_Modification_Time_Is_Read_As_The_New_Version()
    {
        using var cache = Cache();
        var path = _root.PathOf(Name);
        _root.Write(Name, TestBytes.Random(4096));
        var modified = new DateTime(2026, 1, 2, 3, 4, 5, DateTimeKind.Utc); // whole seconds: set back exactly
        File.SetLastWriteTimeUtc(path, modified);
        await ReadAsync(cache);

        // The same inode grown in place, its modification time set back: the kept handle reads the
        // new bytes too, so what must not be stale is the version described (its size, then its ETag).
        var next = TestBytes.Random(6000);
        using (var file = new FileStream(path, FileMode.Open, FileAccess.Write, FileShare.ReadWrite))
        {
            file.Write(next);
        }

        File.SetLastWriteTimeUtc(path, modified);

        await using var opened = cache.Open(Name, path, NoDigest)!;
        Assert.Equal(next.Length, opened.Object.Size);
        Assert.Equal(SHA256.HashData(next), SHA256.HashData(await ReadAllAsync(opened)));
    }

    [Fact]
    public async Task A_File_Deleted_By_Another_Program_Is_Gone_And_Its_Handle_Closed()
    {
        using var cache = Cache();
        _root.Write(Name, TestBytes.Random(4096));
        await ReadAsync(cache);

        File.Delete(_root.PathOf(Name));

        Assert.Null(cache.Open(Name, _root.PathOf(Name), NoDigest));
        Assert.Equal(0, cache.Count);
    }

    [Fact]
    public async Task A_Read_Under_Way_Keeps_Its_Version_When_The_Name_Is_Replaced_And_Its_Entry_Dropped()
    {
        using var cache = Cache();
        var old = TestBytes.Random(100_000);
        _root.Write(Name, old);
        await using var underWay = cache.Open(Name, _root.PathOf(Name), NoDigest)!;

        var next = TestBytes.Random(50_000);
        _root.Write("next.tmp", next);
        File.Move(_root.PathOf("next.tmp"), _root.PathOf(Name), overwrite: true);
        var fresh = await ReadAsync(cache); // drops the old entry: the cache lets go of the old handle
        cache.Forget(_root.PathOf(Name));

        Assert.Equal(SHA256.HashData(next), SHA256.HashData(fresh));
        Assert.Equal(old.Length, underWay.Object.Size);
        Assert.Equal(SHA256.HashData(old), SHA256.HashData(await ReadAllAsync(underWay)));
    }

    [Fact]
    public async Task A_Shared_Handle_Stays_Open_For_Other_Reads_However_Often_One_Read_Is_Disposed()
    {
        using var cache = Cache();
        var bytes = TestBytes.Random(20_000);
        _root.Write(Name, bytes);
        var one = cache.Open(Name, _root.PathOf(Name), NoDigest)!;
        await using var other = cache.Open(Name, _root.PathOf(Name), NoDigest)!;

        await one.DisposeAsync();
        await one.DisposeAsync();
        cache.Forget(_root.PathOf(Name));

        Assert.Equal(SHA256.HashData(bytes), SHA256.HashData(await ReadAllAsync(other)));
    }

    [Fact]
    public async Task At_Most_The_Configured_Number_Of_Handles_Are_Kept_And_Each_Closes_After_Idling()
    {
        using var cache = Cache(openFiles: 2);
        var contents = Enumerable.Range(0, 3).Select(i => TestBytes.Random(1000 + i)).ToArray();
        for (var i = 0; i < contents.Length; i++)
        {
            _root.Write($"f{i}.bin", contents[i]);
            Assert.Equal(SHA256.HashData(contents[i]), SHA256.HashData(await ReadAsync(cache, $"f{i}.bin")));
        }

        Assert.Equal(2, cache.Count);
        _time.Advance(OpenFileCache.Idle);
        Assert.Equal(0, cache.Count);
    }

    [Fact]
    public async Task A_File_Larger_Than_The_Largest_Kept_Is_Opened_For_Each_Read()
    {
        using var cache = Cache();
        var bytes = TestBytes.Random((int)OpenFileCache.LargestKeptBytes + 1);
        _root.Write(Name, bytes);

        Assert.Equal(SHA256.HashData(bytes), SHA256.HashData(await ReadAsync(cache)));
        Assert.Equal(0, cache.Count);
        Assert.DoesNotContain(Inode(_root.PathOf(Name)), OpenInodes());
    }

    [Fact]
    public async Task Zero_Open_Files_Keeps_No_Handle()
    {
        using var cache = Cache(openFiles: 0);
        var bytes = TestBytes.Random(3000);
        _root.Write(Name, bytes);

        Assert.Equal(SHA256.HashData(bytes), SHA256.HashData(await ReadAsync(cache)));
        Assert.Equal(0, cache.Count);
    }

    [Fact]
    public async Task The_Backend_Closes_The_Kept_Handle_When_It_Deletes_The_Name()
    {
        var backend = LocalBackends.Create(_root.Path);
        _root.Write(Name, TestBytes.Random(2048));
        await using (var opened = await backend.OpenAsync(Name, TestTimeout.Token))
        {
            Assert.NotNull(opened);
        }

        var inode = Inode(_root.PathOf(Name));
        Assert.Contains(inode, OpenInodes());
        await backend.DeleteAsync(Name, Preconditions.None, TestTimeout.Token);

        Assert.DoesNotContain(inode, OpenInodes());
    }

    private OpenFileCache Cache(int openFiles = LocalStorageOptions.DefaultOpenFiles) =>
        new(Options.Create(new LocalStorageOptions { OpenFiles = openFiles }), _time);

    private async Task<byte[]> ReadAsync(OpenFileCache cache, string name = Name)
    {
        await using var file = cache.Open(name, _root.PathOf(name), NoDigest) ?? throw new FileNotFoundException(name);
        return await ReadAllAsync(file);
    }

    private static async Task<byte[]> ReadAllAsync(IOpenedObject file)
    {
        await using var stream = await file.OpenReadAsync(0, file.Object.Size, TestTimeout.Token);
        using var copy = new MemoryStream();
        await stream.CopyToAsync(copy, TestTimeout.Token);
        return copy.ToArray();
    }

    private static ulong Inode(string path) => FileIdentity.TryOf(path, out var identity) ? identity.Inode : throw new FileNotFoundException(path);

    // The inodes this process holds open, from /proc/self/fd.
    private static HashSet<ulong> OpenInodes()
    {
        var inodes = new HashSet<ulong>();
        foreach (var fd in Directory.EnumerateFileSystemEntries("/proc/self/fd"))
        {
            if (FileIdentity.TryOf(fd, out var identity))
            {
                inodes.Add(identity.Inode);
            }
        }

        return inodes;
    }
}
