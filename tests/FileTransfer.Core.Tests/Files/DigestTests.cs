using System.Security.Cryptography;
using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Files;

/// <summary>
/// <see cref="FileOperations.DigestAsync"/> describes the version that was opened: the digest the
/// backend keeps for it, or one computed from that same open (never from a second open of the name,
/// which may hold another version by then), handed back to the backend for that version only.
/// </summary>
public sealed class DigestTests
{
    private readonly InMemoryBackend _backend = new();

    private static CancellationToken Token => TestTimeout.Token;

    [Fact]
    public async Task A_Digest_The_Backend_Keeps_Is_Returned_Without_Reading_Or_Saving()
    {
        var files = Operations.Over(_backend);
        var source = TestBytes.Random(1000);
        await files.UploadAsync(new UploadRequest("known.bin"), source);
        var readsBefore = _backend.Reads;

        await using var opened = await files.OpenAsync(TestCallers.Full, "known.bin", Preconditions.None, Token);
        var sha256 = await files.DigestAsync(opened, Token);

        Assert.Equal(TestBytes.Sha256(source), Convert.ToHexString(sha256));
        Assert.Equal(readsBefore, _backend.Reads);
        Assert.Empty(_backend.SavedDigests);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData((1024 * 1024) - 1)]
    [InlineData(1024 * 1024)]
    [InlineData((3 * 1024 * 1024) + 12_345)]
    public async Task An_Unknown_Digest_Is_Computed_From_The_Opened_Version_Saved_For_It_And_Known_To_Later_Opens(int size)
    {
        var files = Operations.Over(_backend);
        var source = TestBytes.Random(size);
        var placed = _backend.Place("placed.bin", source);

        await using (var opened = await files.OpenAsync(TestCallers.Full, "placed.bin", Preconditions.None, Token))
        {
            Assert.Null(opened.Sha256);
            var sha256 = await files.DigestAsync(opened, Token);

            Assert.Equal(TestBytes.Sha256(source), Convert.ToHexString(sha256));
            Assert.Same(sha256, opened.Sha256);
            Assert.Equal(TestBytes.Sha256(source), Convert.ToHexString(await files.DigestAsync(opened, Token)));
        }

        Assert.Equal(1, _backend.OpensOf("placed.bin"));
        var saved = Assert.Single(_backend.SavedDigests);
        Assert.Equal(placed.ETag, saved.Version.ETag);
        Assert.Equal(TestBytes.Sha256(source), Convert.ToHexString(saved.Sha256));
        await using var again = await files.OpenAsync(TestCallers.Full, "placed.bin", Preconditions.None, Token);
        Assert.Equal(TestBytes.Sha256(source), Convert.ToHexString(again.Sha256!));
    }

    [Fact]
    public async Task A_Digest_Computed_After_The_Name_Was_Replaced_Is_The_Opened_Versions_And_Never_Reopens_The_Name()
    {
        var files = Operations.Over(_backend);
        var first = TestBytes.Random(100_000);
        var second = TestBytes.Random(100_000);
        var v1 = _backend.Place("swapped.bin", first);
        await using var opened = await files.OpenAsync(TestCallers.Full, "swapped.bin", Preconditions.None, Token);

        var v2 = await files.UploadAsync(new UploadRequest("swapped.bin"), second);
        var sha256 = await files.DigestAsync(opened, Token);

        Assert.Equal(TestBytes.Sha256(first), Convert.ToHexString(sha256));
        Assert.Equal(1, _backend.OpensOf("swapped.bin"));
        Assert.Equal(v1.ETag, Assert.Single(_backend.SavedDigests).Version.ETag);
        await using var current = await files.OpenAsync(TestCallers.Full, "swapped.bin", Preconditions.None, Token);
        Assert.Equal(v2.File.ETag, current.Version.ETag);
        Assert.Equal(TestBytes.Sha256(second), Convert.ToHexString(current.Sha256!));
    }

    [Fact]
    public async Task A_Digest_Computed_After_The_Name_Was_Replaced_Behind_The_Servers_Back_Is_Not_Given_To_The_New_Version()
    {
        var files = Operations.Over(_backend);
        var first = TestBytes.Random(100_000);
        _backend.Place("swapped.bin", first);
        await using var opened = await files.OpenAsync(TestCallers.Full, "swapped.bin", Preconditions.None, Token);

        _backend.Place("swapped.bin", TestBytes.Random(100_000));
        Assert.Equal(TestBytes.Sha256(first), Convert.ToHexString(await files.DigestAsync(opened, Token)));

        await using var current = await files.OpenAsync(TestCallers.Full, "swapped.bin", Preconditions.None, Token);
        Assert.Null(current.Sha256);
    }

    [Fact]
    public async Task Describe_Takes_The_Version_And_Its_Digest_From_One_Open()
    {
        var files = Operations.Over(_backend);
        var source = TestBytes.Random(5000);
        var placed = _backend.Place("described.txt", source);

        var (version, sha256) = await files.DescribeAsync(TestCallers.Full, "described.txt", Token);

        Assert.Equal((placed.ETag, 5000L, "text/plain"), (version.ETag, version.Size, version.ContentType));
        Assert.Equal(SHA256.HashData(source), sha256);
        Assert.Equal(1, _backend.OpensOf("described.txt"));
        Assert.Equal(0, _backend.LiveOpens);
    }
}
