using System.Security.Cryptography;
using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Contract;

/// <summary>
/// What every <see cref="IUploadSessionStore"/> must do, as its doc comments say: each store's test
/// class derives from this and supplies a fresh backend with its store. Records survive as saved,
/// one lease at a time, bytes count only once saved, the hand-over commits through the backend's
/// own commit, and a deleted session leaves nothing.
/// </summary>
public abstract class UploadSessionStoreContract : IAsyncLifetime
{
    private (IStorageBackend Backend, IUploadSessionStore Store)? _pair;

    protected IStorageBackend Backend => (_pair ?? throw new InvalidOperationException("Created before each test.")).Backend;

    protected IUploadSessionStore Store => (_pair ?? throw new InvalidOperationException("Created before each test.")).Store;

    protected static CancellationToken Token => TestTimeout.Token;

    /// <summary>A fresh, empty backend and its session store.</summary>
    protected abstract ValueTask<(IStorageBackend Backend, IUploadSessionStore Store)> CreateAsync();

    /// <summary>A second store over the same medium, as another process (or a restarted server) opens it.</summary>
    protected abstract IUploadSessionStore OpenAgain();

    protected abstract ValueTask DeleteAsync();

    public async Task InitializeAsync() => _pair = await CreateAsync();

    public async Task DisposeAsync() => await DeleteAsync();

    [Fact]
    public async Task A_Created_Session_Reads_Back_As_Created_And_An_Unknown_Id_As_Nothing()
    {
        var session = NewSession("docs/a.bin") with
        {
            Length = 1234,
            MaxBytes = 5000,
            ExpectedSha256 = SHA256.HashData([1]),
            Preconditions = new Preconditions(IfMatch: ["\"v1\""]),
            Metadata = "filename YS5iaW4=",
        };

        await Store.CreateAsync(session, Token);
        var read = await OpenAgain().GetAsync(session.Id, Token);

        Assert.NotNull(read);
        Assert.Equal((session.Id, session.Name, session.Owner, session.Length, session.Offset, session.MaxBytes, session.Metadata), (read.Id, read.Name, read.Owner, read.Length, read.Offset, read.MaxBytes, read.Metadata));
        Assert.Equal(session.ExpectedSha256, read.ExpectedSha256);
        Assert.Equal(session.HashState, read.HashState);
        Assert.Equal(session.Preconditions.IfMatch, read.Preconditions.IfMatch);
        Assert.Equal(session.ExpiresAt, read.ExpiresAt);
        Assert.Null(await Store.GetAsync(UploadSessionIds.New(), Token));
        await Refusals.AssertAsync(ErrorReason.UploadNotFound, async () => await Store.TryAcquireAsync(UploadSessionIds.New(), Token));
    }

    [Fact]
    public async Task One_Lease_At_A_Time_Across_Every_Opener_Of_The_Store()
    {
        var session = await CreateSessionAsync("one.bin");
        var other = OpenAgain();

        await using (var lease = await Store.TryAcquireAsync(session.Id, Token))
        {
            Assert.NotNull(lease);
            Assert.Null(await Store.TryAcquireAsync(session.Id, Token));
            Assert.Null(await other.TryAcquireAsync(session.Id, Token));
        }

        await using var again = await other.TryAcquireAsync(session.Id, Token);
        Assert.NotNull(again);
    }

    [Fact]
    public async Task Saved_Bytes_Count_And_Bytes_Written_But_Not_Saved_Do_Not()
    {
        var bytes = TestBytes.Random(700_000);
        var session = await CreateSessionAsync("two.bin");

        await using (var lease = await AcquireAsync(session.Id))
        {
            await lease.WriteAsync(bytes.AsMemory(0, 300_000), Token);
            var saved = await lease.SaveAsync(lease.Session with { Offset = 300_000, HashState = [1, 2, 3] }, Token);
            Assert.Equal(300_000, saved.Offset);
            await lease.WriteAsync(TestBytes.Random(123_456), Token); // never saved
        }

        var read = await OpenAgain().GetAsync(session.Id, Token);
        Assert.Equal(300_000, read!.Offset);
        Assert.Equal([1, 2, 3], read.HashState);

        // The next writer continues at the saved offset, over whatever was written past it.
        await using (var lease = await AcquireAsync(session.Id))
        {
            Assert.Equal(300_000, lease.Session.Offset);
            await lease.WriteAsync(bytes.AsMemory(300_000), Token);
            await lease.SaveAsync(lease.Session with { Offset = bytes.Length }, Token);
        }

        Assert.Equal(TestBytes.Sha256(bytes), TestBytes.Sha256(await CommitAsync(session.Id, bytes)));
    }

    [Fact]
    public async Task A_Write_Goes_On_After_A_Save_Within_The_Same_Lease()
    {
        var bytes = TestBytes.Random(1_000_001);
        var session = await CreateSessionAsync("three/deep/file.bin");

        await using (var lease = await AcquireAsync(session.Id))
        {
            var offset = 0;
            foreach (var piece in TestBytes.Pieces(bytes, 262_144))
            {
                await lease.WriteAsync(piece, Token);
                offset += piece.Length;
                await lease.SaveAsync(lease.Session with { Offset = offset }, Token);
            }
        }

        Assert.Equal(TestBytes.Sha256(bytes), TestBytes.Sha256(await CommitAsync(session.Id, bytes)));
    }

    [Fact]
    public async Task Nothing_Is_Visible_Until_The_Hand_Over_Is_Committed_And_Then_The_Session_Holds_No_Bytes()
    {
        var bytes = TestBytes.Random(5000);
        var session = await CreateSessionAsync("visible.bin");
        await using (var lease = await AcquireAsync(session.Id))
        {
            await lease.WriteAsync(bytes, Token);
            await lease.SaveAsync(lease.Session with { Offset = bytes.Length }, Token);
        }

        Assert.Null(await Backend.StatAsync("visible.bin", Token));
        Assert.Empty((await Backend.ListAsync(new ListRequest("", null, 100, ListQuery.MaxNameBytesPerPage), Token)).Objects);

        await CommitAsync(session.Id, bytes);

        var completed = await Store.GetAsync(session.Id, Token);
        Assert.NotNull(completed?.Completed);
        Assert.Equal(bytes.Length, completed.Completed.Stored.Size);
        Assert.Equal(["visible.bin"], (await Backend.ListAsync(new ListRequest("", null, 100, ListQuery.MaxNameBytesPerPage), Token)).Objects.Select(o => o.Name));
    }

    [Fact]
    public async Task A_Hand_Over_Disposed_Uncommitted_Stores_Nothing_And_The_Previous_Version_Stays()
    {
        var previous = await StoreAsync("kept.bin", [9, 9, 9]);
        var session = await CreateSessionAsync("kept.bin");
        await using (var lease = await AcquireAsync(session.Id))
        {
            await lease.WriteAsync(new byte[] { 1, 2 }, Token);
            await lease.SaveAsync(lease.Session with { Offset = 2 }, Token);
            await using (await lease.HandOverAsync(Token))
            {
            }

            await lease.DeleteAsync(Token);
        }

        Assert.Equal(previous.ETag, (await Backend.StatAsync("kept.bin", Token))?.ETag);
        Assert.Null(await Store.GetAsync(session.Id, Token));
    }

    [Theory]
    [InlineData(3000)]
    [InlineData((9 * 1024 * 1024) + 4321)]
    public async Task A_Hand_Over_Whose_Commit_Fails_Leaves_Every_Byte_To_The_Session_For_Another_Hand_Over(int size)
    {
        var bytes = TestBytes.Random(size);
        var session = await CreateSessionAsync("again.bin");
        await using (var lease = await AcquireAsync(session.Id))
        {
            await lease.WriteAsync(bytes, Token);
            await lease.SaveAsync(lease.Session with { Offset = bytes.Length }, Token);
            await using var staged = await lease.HandOverAsync(Token);
            var taken = await StoreAsync("again.bin", [7]);
            await Refusals.AssertAsync(ErrorReason.FileExists, async () => await Backend.CommitAsync([new PendingCommit(staged, new Preconditions(MustNotExist: true), SHA256.HashData(bytes))], Token));
        }

        Assert.Equal(bytes.Length, (await OpenAgain().GetAsync(session.Id, Token))?.Offset);
        Assert.Equal(TestBytes.Sha256(bytes), TestBytes.Sha256(await CommitAsync(session.Id, bytes)));
    }

    [Fact]
    public async Task A_Deleted_Session_Is_Gone_With_Its_Bytes()
    {
        var session = await CreateSessionAsync("gone/file.bin");
        await using (var lease = await AcquireAsync(session.Id))
        {
            await lease.WriteAsync(TestBytes.Random(10_000), Token);
            await lease.SaveAsync(lease.Session with { Offset = 10_000 }, Token);
            await lease.DeleteAsync(Token);
        }

        Assert.Null(await Store.GetAsync(session.Id, Token));
        await Refusals.AssertAsync(ErrorReason.UploadNotFound, async () => await Store.TryAcquireAsync(session.Id, Token));
        Assert.DoesNotContain(await ListAsync(Store), s => s.Id == session.Id);
        await AssertHoldsNothingAsync();
    }

    [Fact]
    public async Task Lists_Every_Session()
    {
        var one = await CreateSessionAsync("l/one.bin");
        var two = await CreateSessionAsync("l/two.bin");

        var listed = await ListAsync(OpenAgain());

        Assert.Equal(new[] { one.Id, two.Id }.Order(), listed.Select(s => s.Id).Order());
    }

    /// <summary>Asserts that the medium holds nothing of any session (no bytes, no record), e.g. after a delete.</summary>
    protected abstract Task AssertHoldsNothingAsync();

    protected static UploadSession NewSession(string name)
    {
        var now = DateTimeOffset.UtcNow;
        return new UploadSession(UploadSessionIds.New(), name, "key:test", now, now.AddHours(1))
        {
            MaxBytes = long.MaxValue,
            HashState = new ResumableSha256().Export(),
        };
    }

    protected async Task<UploadSession> CreateSessionAsync(string name)
    {
        var session = NewSession(name);
        await Store.CreateAsync(session, Token);
        return session;
    }

    protected async Task<IUploadSessionLease> AcquireAsync(string id) =>
        await Store.TryAcquireAsync(id, Token) ?? throw new InvalidOperationException("The session is leased elsewhere.");

    /// <summary>Hands the session's bytes over, commits them, saves the session as completed, and returns what the name holds.</summary>
    protected async Task<byte[]> CommitAsync(string id, byte[] expected)
    {
        await using (var lease = await AcquireAsync(id))
        {
            await using var staged = await lease.HandOverAsync(Token);
            Assert.Equal(expected.Length, staged.Length);
            var committed = Assert.Single(await Backend.CommitAsync([new PendingCommit(staged, Preconditions.None, SHA256.HashData(expected))], Token));
            await lease.SaveAsync(lease.Session with { Completed = new CompletedUpload(committed.Object, committed.Replaced), HashState = [] }, Token);
        }

        var session = await Store.GetAsync(id, Token);
        await using var opened = await Backend.OpenAsync(session!.Name, Token);
        await using var stream = await opened!.OpenReadAsync(0, opened.Object.Size, Token);
        return await TestBytes.ReadToEndAsync(stream, Token);
    }

    private async Task<StoredObject> StoreAsync(string name, byte[] bytes)
    {
        await using var staged = await Backend.StageAsync(name, bytes.Length, Token);
        await staged.WriteAsync(bytes, Token);
        await staged.SealAsync(Token);
        return Assert.Single(await Backend.CommitAsync([new PendingCommit(staged, Preconditions.None, SHA256.HashData(bytes))], Token)).Object;
    }

    private static async Task<List<UploadSession>> ListAsync(IUploadSessionStore store)
    {
        var sessions = new List<UploadSession>();
        await foreach (var session in store.ListAsync(Token))
        {
            sessions.Add(session);
        }

        return sessions;
    }
}
