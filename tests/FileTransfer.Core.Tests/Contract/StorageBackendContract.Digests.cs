using System.Security.Cryptography;
using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Contract;

public abstract partial class StorageBackendContract
{
    /// <summary>A digest no content has: if it shows up on a version, it was attached to the wrong one.</summary>
    private static readonly byte[] Marker = [.. Enumerable.Repeat((byte)0x2A, SHA256.HashSizeInBytes)];

    [Fact]
    public async Task A_Commit_Keeps_Its_Digest_With_The_Version_For_Later_Opens()
    {
        var source = TestBytes.Random(Block + 1);

        var committed = await StoreAsync("digest/file.bin", source);

        Assert.True(committed.Object.Sha256 is null || committed.Object.Sha256.SequenceEqual(SHA256.HashData(source)));
        await using var opened = await Backend.OpenAsync("digest/file.bin", Token);
        Assert.NotNull(opened);
        Assert.Equal(committed.Object.ETag, opened.Object.ETag);
        Assert.Equal(TestBytes.Sha256(source), Convert.ToHexString(opened.Object.Sha256 ?? []));
    }

    [Fact]
    public async Task Each_Replace_Carries_Its_Own_Digest_Not_The_Previous_One()
    {
        var first = TestBytes.Random(1000);
        var second = TestBytes.Random(1000);
        await StoreAsync("digest/file.bin", first);
        await StoreAsync("digest/file.bin", second);

        await using var opened = await Backend.OpenAsync("digest/file.bin", Token);

        Assert.Equal(TestBytes.Sha256(second), Convert.ToHexString(opened!.Object.Sha256 ?? []));
    }

    [Fact]
    public async Task A_Version_Placed_By_Another_Program_Opens_Without_A_Digest_Or_With_Its_True_One()
    {
        var source = TestBytes.Random(1000);
        await PlaceAsync("digest/placed.bin", source);

        await using var opened = await Backend.OpenAsync("digest/placed.bin", Token);

        Assert.NotNull(opened);
        Assert.True(opened.Object.Sha256 is null || opened.Object.Sha256.SequenceEqual(SHA256.HashData(source)));
        Assert.Equal(TestBytes.Sha256(source), TestBytes.Sha256(await ReadAsync(opened, 0, opened.Object.Size)));
    }

    [Fact]
    public async Task A_Saved_Digest_Is_Carried_By_Later_Opens_Of_The_Same_Version()
    {
        var source = TestBytes.Random(Block + 1);
        await PlaceAsync("digest/placed.bin", source);
        StoredObject version;
        await using (var first = await Backend.OpenAsync("digest/placed.bin", Token))
        {
            version = first!.Object;
        }

        await Backend.SaveDigestAsync(version, SHA256.HashData(source), Token);

        await using var again = await Backend.OpenAsync("digest/placed.bin", Token);
        Assert.Equal(version.ETag, again!.Object.ETag);
        AssertKept(SHA256.HashData(source), again.Object.Sha256);
    }

    [Fact]
    public async Task A_Digest_Saved_For_A_Replaced_Version_Is_Never_Attached_To_The_One_That_Replaced_It()
    {
        var first = TestBytes.Random(1000);
        var second = TestBytes.Random(1000);
        await PlaceAsync("digest/file.bin", first);
        await using var opened = await Backend.OpenAsync("digest/file.bin", Token);
        Assert.NotNull(opened);
        var v2 = await StoreAsync("digest/file.bin", second);

        await Backend.SaveDigestAsync(opened.Object, Marker, Token);

        await using var current = await Backend.OpenAsync("digest/file.bin", Token);
        Assert.Equal(v2.Object.ETag, current!.Object.ETag);
        Assert.Equal(TestBytes.Sha256(second), Convert.ToHexString(current.Object.Sha256 ?? []));
    }

    [Fact]
    public async Task A_Digest_Saved_For_A_Deleted_Version_Is_Never_Attached_To_A_Later_One()
    {
        var first = TestBytes.Random(1000);
        var second = TestBytes.Random(1000);
        await PlaceAsync("digest/file.bin", first);
        await using var opened = await Backend.OpenAsync("digest/file.bin", Token);
        Assert.NotNull(opened);
        Assert.NotNull(await Backend.DeleteAsync("digest/file.bin", Preconditions.None, Token));

        await Backend.SaveDigestAsync(opened.Object, Marker, Token);
        var v2 = await StoreAsync("digest/file.bin", second);

        await using var current = await Backend.OpenAsync("digest/file.bin", Token);
        Assert.Equal(v2.Object.ETag, current!.Object.ETag);
        Assert.Equal(TestBytes.Sha256(second), Convert.ToHexString(current.Object.Sha256 ?? []));
    }

    [Fact]
    public async Task A_Digest_Saved_For_A_Version_Is_Not_Given_To_Another_Name()
    {
        var source = TestBytes.Random(1000);
        await PlaceAsync("digest/a.bin", source);
        await PlaceAsync("digest/b.bin", source);
        await using var a = await Backend.OpenAsync("digest/a.bin", Token);

        await Backend.SaveDigestAsync(a!.Object, Marker, Token);

        await using var b = await Backend.OpenAsync("digest/b.bin", Token);
        Assert.True(b!.Object.Sha256 is null || b.Object.Sha256.SequenceEqual(SHA256.HashData(source)));
        await using var again = await Backend.OpenAsync("digest/a.bin", Token);
        AssertKept(Marker, again!.Object.Sha256);
    }

    /// <summary>The saved digest came back (a backend that keeps none, as its contract allows, has nothing to show).</summary>
    private void AssertKept(byte[] saved, byte[]? carried)
    {
        if (KeepsSavedDigests)
        {
            Assert.Equal(Convert.ToHexString(saved), Convert.ToHexString(carried ?? []));
        }
    }
}
