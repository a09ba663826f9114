using System.Security.Cryptography;
using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Uploads;

/// <summary>
/// What <see cref="FileOperations"/> decides about an upload before the backend commits it: size
/// limits, declared length, expected digest, preconditions before any byte is staged, and one
/// commit of several uploads.
/// </summary>
public sealed class UploadTests
{
    private readonly InMemoryBackend _backend = new();

    private static CancellationToken Token => TestTimeout.Token;

    [Fact]
    public async Task A_Declared_Length_Over_The_Limit_Is_FileTooLarge_Before_Anything_Is_Staged()
    {
        var files = Operations.Over(_backend, maxFileSizeBytes: 1000);

        await Refusals.AssertAsync(ErrorReason.FileTooLarge, async () => await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("big.bin") { DeclaredLength = 1001 }, Token));
        Assert.Empty(_backend.Stagings);

        var exact = await files.UploadAsync(new UploadRequest("big.bin") { DeclaredLength = 1000 }, TestBytes.Random(1000));
        Assert.Equal(1000, exact.File.Size);
        Assert.Equal(1000, Assert.Single(_backend.Stagings).DeclaredLength);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(7)]
    [InlineData(600)]
    [InlineData(Upload.BlockSize + 1)]
    public async Task Appends_Past_The_Limit_Are_FileTooLarge_And_Store_Nothing(int pieceSize)
    {
        const int limit = Upload.BlockSize + 100;
        var files = Operations.Over(_backend, maxFileSizeBytes: limit);
        var source = TestBytes.Random(limit + 1);

        var token = Token;
        var upload = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("big.bin"), token);
        await Refusals.AssertAsync(ErrorReason.FileTooLarge, async () =>
        {
            foreach (var piece in TestBytes.Pieces(source, pieceSize))
            {
                await upload.AppendAsync(piece, token);
            }
        });
        Assert.True(upload.Length <= limit);
        await upload.DisposeAsync();

        Assert.True(Assert.Single(_backend.Stagings).IsDiscarded);
        Assert.True(_backend.Stagings[0].Length <= limit);
        await Refusals.AssertAsync(ErrorReason.FileNotFound, async () => await files.StatAsync(TestCallers.Full, "big.bin", Token));
    }

    [Fact]
    public async Task An_Upload_Of_Exactly_The_Limit_Is_Stored()
    {
        var files = Operations.Over(_backend, maxFileSizeBytes: Upload.BlockSize + 100);
        var source = TestBytes.Random(Upload.BlockSize + 100);

        var stored = await files.UploadAsync(new UploadRequest("full.bin"), source, pieceSize: 1000);

        Assert.Equal(TestBytes.Sha256(source), Convert.ToHexString(stored.Sha256));
    }

    [Fact]
    public async Task A_Signed_Cap_Narrower_Than_The_Global_Limit_Applies_To_Declared_And_Sent_Bytes()
    {
        var files = Operations.Over(_backend, maxFileSizeBytes: 1_000_000);

        await Refusals.AssertAsync(ErrorReason.FileTooLarge, async () => await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("cap.bin") { DeclaredLength = 101, MaxBytes = 100 }, Token));
        Assert.Empty(_backend.Stagings);
        await using (var upload = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("cap.bin") { MaxBytes = 100 }, Token))
        {
            await upload.AppendAsync(new byte[100], Token);
            await Refusals.AssertAsync(ErrorReason.FileTooLarge, async () => await upload.AppendAsync(new byte[1], Token));
        }

        var stored = await files.UploadAsync(new UploadRequest("cap.bin") { DeclaredLength = 100, MaxBytes = 100 }, TestBytes.Random(100));
        Assert.Equal(100, stored.File.Size);
    }

    [Fact]
    public async Task A_Signed_Cap_Wider_Than_The_Global_Limit_Does_Not_Widen_It()
    {
        var files = Operations.Over(_backend, maxFileSizeBytes: 100);

        await Refusals.AssertAsync(ErrorReason.FileTooLarge, async () => await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("cap.bin") { DeclaredLength = 101, MaxBytes = 1000 }, Token));
        await using var upload = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("cap.bin") { MaxBytes = 1000 }, Token);
        await Refusals.AssertAsync(ErrorReason.FileTooLarge, async () => await upload.AppendAsync(new byte[101], Token));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(99)]
    [InlineData(101)]
    [InlineData(Upload.BlockSize + 1)]
    public async Task A_Declared_Length_The_Bytes_Do_Not_Match_Is_SizeMismatch_And_Stores_Nothing(int sent)
    {
        var files = Operations.Over(_backend);
        var previous = await files.UploadAsync(new UploadRequest("sized.bin"), TestBytes.Random(10));

        await using var upload = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("sized.bin") { DeclaredLength = 100 }, Token);
        await upload.AppendAsync(TestBytes.Random(sent), Token);
        await Refusals.AssertAsync(ErrorReason.SizeMismatch, async () => await files.CommitAsync(upload, Token));

        Assert.Equal(previous.File.ETag, (await files.StatAsync(TestCallers.Full, "sized.bin", Token)).ETag);
        Assert.False(_backend.Stagings[^1].IsCommitted);
    }

    [Fact]
    public async Task An_Expected_Digest_The_Bytes_Do_Not_Have_Is_DigestMismatch_And_Stores_Nothing()
    {
        var files = Operations.Over(_backend);
        var source = TestBytes.Random(Upload.BlockSize + 1);
        var previous = await files.UploadAsync(new UploadRequest("digest.bin"), TestBytes.Random(10));
        var wrong = SHA256.HashData(source);
        wrong[^1] ^= 1;

        await using (var upload = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("digest.bin") { ExpectedSha256 = wrong }, Token))
        {
            await upload.AppendAsync(source, Token);
            await Refusals.AssertAsync(ErrorReason.DigestMismatch, async () => await files.CommitAsync(upload, Token));
        }

        Assert.Equal(previous.File.ETag, (await files.StatAsync(TestCallers.Full, "digest.bin", Token)).ETag);
        Assert.True(_backend.Stagings[^1].IsDiscarded);

        var stored = await files.UploadAsync(new UploadRequest("digest.bin") { ExpectedSha256 = SHA256.HashData(source) }, source);
        Assert.Equal(TestBytes.Sha256(source), Convert.ToHexString(stored.Sha256));
    }

    public static TheoryData<string, Preconditions> PreconditionsThatFail => new()
    {
        { "exists.bin", new Preconditions(MustNotExist: true) },
        { "exists.bin", Preconditions.IfMatches("\"stale\"") },
        { "missing.bin", Preconditions.IfMatches(EntityTags.Any) },
        { "missing.bin", Preconditions.IfMatches("\"any\"") },
    };

    [Theory]
    [MemberData(nameof(PreconditionsThatFail))]
    public async Task A_Precondition_That_Fails_Refuses_The_Upload_Before_Anything_Is_Staged(string name, Preconditions preconditions)
    {
        var files = Operations.Over(_backend);
        await files.UploadAsync(new UploadRequest("exists.bin"), [1]);
        var stagedBefore = _backend.Stagings.Count;

        var refused = await Assert.ThrowsAsync<FileTransferException>(async () => await files.BeginUploadAsync(TestCallers.Full, new UploadRequest(name) { Preconditions = preconditions }, Token));

        Assert.Equal(preconditions.MustNotExist ? ErrorReason.FileExists : ErrorReason.EtagMismatch, refused.Reason);
        Assert.Equal(stagedBefore, _backend.Stagings.Count);
    }

    [Fact]
    public async Task A_Precondition_That_Held_When_The_Upload_Began_Is_Checked_Again_At_Commit()
    {
        var files = Operations.Over(_backend);
        var v1 = await files.UploadAsync(new UploadRequest("raced.bin"), [1]);
        await using var upload = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("raced.bin") { Preconditions = Preconditions.IfMatches(v1.File.ETag) }, Token);
        await upload.AppendAsync(new byte[] { 2 }, Token);

        var v2 = await files.UploadAsync(new UploadRequest("raced.bin"), [3]);
        await Refusals.AssertAsync(ErrorReason.EtagMismatch, async () => await files.CommitAsync(upload, Token));

        Assert.Equal(v2.File.ETag, (await files.StatAsync(TestCallers.Full, "raced.bin", Token)).ETag);
    }

    [Fact]
    public async Task A_Commit_Describes_The_Stored_Version_And_Says_Whether_It_Replaced_One()
    {
        var files = Operations.Over(_backend);
        var first = TestBytes.Random(1000);
        var second = TestBytes.Random(2000);

        var created = await files.UploadAsync(new UploadRequest("docs/readme.txt"), first);
        var replaced = await files.UploadAsync(new UploadRequest("docs/readme.txt") { Preconditions = Preconditions.IfMatches(created.File.ETag) }, second);

        Assert.False(created.Replaced);
        Assert.True(replaced.Replaced);
        Assert.Equal(("docs/readme.txt", 2000L, "text/plain"), (replaced.File.Name, replaced.File.Size, replaced.File.ContentType));
        Assert.Equal(TestBytes.Sha256(second), Convert.ToHexString(replaced.Sha256));
        Assert.NotEqual(created.File.ETag, replaced.File.ETag);
        await using var opened = await files.OpenAsync(TestCallers.Full, "docs/readme.txt", Preconditions.None, Token);
        Assert.Equal(replaced.File.ETag, opened.Version.ETag);
        Assert.Equal(TestBytes.Sha256(second), Convert.ToHexString(opened.Sha256!));
    }

    [Fact]
    public async Task CommitAll_Refuses_A_Name_Twice_And_Stores_Neither()
    {
        var files = Operations.Over(_backend);
        await using var first = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("twice.bin"), Token);
        await using var second = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("twice.bin"), Token);
        await using var other = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("other.bin"), Token);
        await first.AppendAsync(new byte[] { 1 }, Token);
        await second.AppendAsync(new byte[] { 2 }, Token);

        var calls = _backend.Calls;

        await Assert.ThrowsAsync<ArgumentException>(async () => await files.CommitAllAsync([first, other, second], Token));

        Assert.Equal(calls, _backend.Calls); // refused by the core, not left to the backend

        await Refusals.AssertAsync(ErrorReason.FileNotFound, async () => await files.StatAsync(TestCallers.Full, "twice.bin", Token));
        await Refusals.AssertAsync(ErrorReason.FileNotFound, async () => await files.StatAsync(TestCallers.Full, "other.bin", Token));
        Assert.All(_backend.Stagings, s => Assert.False(s.IsCommitted));
    }

    [Fact]
    public async Task CommitAll_Where_One_Precondition_Fails_Stores_None()
    {
        var files = Operations.Over(_backend);
        var existing = await files.UploadAsync(new UploadRequest("form/b.bin"), [1]);
        await using var a = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("form/a.bin") { Preconditions = new(MustNotExist: true) }, Token);
        await using var b = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("form/b.bin") { Preconditions = Preconditions.IfMatches(existing.File.ETag) }, Token);
        await a.AppendAsync(new byte[] { 2 }, Token);
        await b.AppendAsync(new byte[] { 3 }, Token);
        await files.UploadAsync(new UploadRequest("form/b.bin"), [4]);

        await Refusals.AssertAsync(ErrorReason.EtagMismatch, async () => await files.CommitAllAsync([a, b], Token));

        await Refusals.AssertAsync(ErrorReason.FileNotFound, async () => await files.StatAsync(TestCallers.Full, "form/a.bin", Token));
    }

    [Fact]
    public async Task Disposing_An_Uncommitted_Upload_Discards_Its_Staged_Bytes()
    {
        var files = Operations.Over(_backend);

        await using (var upload = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("dropped.bin"), Token))
        {
            await upload.AppendAsync(TestBytes.Random((2 * Upload.BlockSize) + 1), Token);
        }

        Assert.True(Assert.Single(_backend.Stagings).IsDiscarded);
        await Refusals.AssertAsync(ErrorReason.FileNotFound, async () => await files.StatAsync(TestCallers.Full, "dropped.bin", Token));
    }
}
