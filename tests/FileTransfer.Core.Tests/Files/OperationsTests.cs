using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Files;

/// <summary>Stat, open and delete through <see cref="FileOperations"/>: what a missing name is, and preconditions checked against the version opened.</summary>
public sealed class OperationsTests
{
    private readonly InMemoryBackend _backend = new();

    private static CancellationToken Token => TestTimeout.Token;

    [Fact]
    public async Task Stat_Open_Describe_And_Delete_Of_A_Missing_Name_Are_FileNotFound()
    {
        var files = Operations.Over(_backend);

        await Refusals.AssertAsync(ErrorReason.FileNotFound, async () => await files.StatAsync(TestCallers.Full, "missing.bin", Token));
        await Refusals.AssertAsync(ErrorReason.FileNotFound, async () => await files.OpenAsync(TestCallers.Full, "missing.bin", Preconditions.None, Token));
        await Refusals.AssertAsync(ErrorReason.FileNotFound, async () => await files.DescribeAsync(TestCallers.Full, "missing.bin", Token));
        await Refusals.AssertAsync(ErrorReason.FileNotFound, async () => await files.DeleteAsync(TestCallers.Full, TransferProtocol.Rest, "missing.bin", Preconditions.None, Token));
    }

    [Fact]
    public async Task Stat_Describes_The_Current_Version_With_Its_Content_Type()
    {
        var files = Operations.Over(_backend);
        var placed = _backend.Place("notes/today.txt", TestBytes.Random(42));

        var version = await files.StatAsync(TestCallers.Full, "notes/today.txt", Token);

        Assert.Equal(("notes/today.txt", 42L, placed.ETag, placed.LastModified, "text/plain"), (version.Name, version.Size, version.ETag, version.LastModified, version.ContentType));
    }

    [Fact]
    public async Task Open_Checks_Preconditions_Against_The_Version_It_Opened_And_Closes_It_When_They_Fail()
    {
        var files = Operations.Over(_backend);
        var stale = _backend.Place("cond.bin", [1]);
        var current = _backend.Place("cond.bin", [2]);

        await Refusals.AssertAsync(ErrorReason.EtagMismatch, async () => await files.OpenAsync(TestCallers.Full, "cond.bin", Preconditions.IfMatches(stale.ETag), Token));
        await Refusals.AssertAsync(ErrorReason.FileExists, async () => await files.OpenAsync(TestCallers.Full, "cond.bin", new Preconditions(MustNotExist: true), Token));
        Assert.Equal(0, _backend.LiveOpens);

        await using var opened = await files.OpenAsync(TestCallers.Full, "cond.bin", Preconditions.IfMatches(current.ETag), Token);
        Assert.Equal(current.ETag, opened.Version.ETag);
        Assert.Equal(1, _backend.LiveOpens);
    }

    [Fact]
    public async Task An_Opened_File_Reads_Ranges_Of_Its_Version()
    {
        var files = Operations.Over(_backend);
        var source = TestBytes.Random(1000);
        _backend.Place("ranged.bin", source);
        await using var opened = await files.OpenAsync(TestCallers.Full, "ranged.bin", Preconditions.None, Token);

        await using var bytes = await opened.OpenReadAsync(ReadRange.FromOffset(990, 0, opened.Version.Size), Token);

        Assert.Equal(source[990..], await TestBytes.ReadToEndAsync(bytes, Token));
        Assert.Null(opened.PhysicalPath);
    }

    [Fact]
    public async Task Delete_Removes_The_File_When_Its_Preconditions_Hold_And_Keeps_It_When_Not()
    {
        var files = Operations.Over(_backend);
        var stale = _backend.Place("del.bin", [1]);
        var current = _backend.Place("del.bin", [2]);

        await Refusals.AssertAsync(ErrorReason.EtagMismatch, async () => await files.DeleteAsync(TestCallers.Full, TransferProtocol.Rest, "del.bin", Preconditions.IfMatches(stale.ETag), Token));
        Assert.Equal(current.ETag, (await files.StatAsync(TestCallers.Full, "del.bin", Token)).ETag);

        await files.DeleteAsync(TestCallers.Full, TransferProtocol.Rest, "del.bin", Preconditions.IfMatches(current.ETag), Token);
        await Refusals.AssertAsync(ErrorReason.FileNotFound, async () => await files.StatAsync(TestCallers.Full, "del.bin", Token));
    }

    [Fact]
    public async Task IsAvailable_And_Location_Are_The_Backends()
    {
        var files = Operations.Over(_backend);

        Assert.True(await files.IsAvailableAsync(Token));
        Assert.Equal(_backend.Location, files.Location);
    }
}
