using System.Security.Cryptography;
using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Sessions;

/// <summary>
/// The rules of resumable uploads, written once in <see cref="UploadSessions"/> for every protocol:
/// creation as strict as any upload, appends at the durable offset by the owner and one writer at
/// a time, the final SHA-256 over every byte of every request, and the commit through the backend.
/// </summary>
public sealed class UploadSessionsTests : IDisposable
{
    private readonly Infrastructure.Sessions _sessions = new(maxFileSizeBytes: 10_000_000);

    private static CancellationToken Token => TestTimeout.Token;

    private UploadSessions Core => _sessions.Core;

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(Upload.BlockSize - 1)]
    [InlineData(Upload.BlockSize)]
    [InlineData(Upload.BlockSize + 1)]
    [InlineData((3 * Upload.BlockSize) + 4321)]
    public async Task A_File_Sent_In_Several_Requests_Through_Restarts_Is_Stored_With_The_Sha256_Of_Every_Byte(int size)
    {
        var bytes = TestBytes.Random(size);
        var session = await Core.CreateAsync(new UploadRequest("parts/file.bin") { DeclaredLength = size }, Infrastructure.Sessions.Owner, null, Token);

        // Each request through a freshly started core, as after a server restart.
        // The request that reaches the declared length completes the upload (at once for 0 bytes).
        var offset = 0;
        foreach (var cut in new[] { size / 3, size / 2, size }.Distinct())
        {
            var outcome = await _sessions.AppendAsync(_sessions.Restart(), session.Id, offset, bytes.AsMemory(offset, cut - offset), UploadEnd.AtLength);
            offset = cut;
            Assert.Equal(offset, outcome.Session.Offset);
            Assert.Equal(cut == size, outcome.Stored is not null);
        }

        var completed = await Core.GetAsync(session.Id, Infrastructure.Sessions.Owner, Token);
        Assert.True(completed.IsComplete);
        Assert.Equal(SHA256.HashData(bytes), completed.Completed!.Stored.Sha256);
        Assert.Equal(TestBytes.Sha256(bytes), TestBytes.Sha256(_sessions.Read("parts/file.bin")!));
    }

    [Fact]
    public async Task Creation_Is_Refused_As_Any_Upload_Would_Be()
    {
        _sessions.Root.Write("taken.bin", [1]);

        await Refusals.AssertAsync(ErrorReason.InvalidFileName, async () => await Core.CreateAsync(new UploadRequest("../escape.bin"), Infrastructure.Sessions.Owner, null, Token));
        await Refusals.AssertAsync(ErrorReason.InvalidFileName, async () => await Core.CreateAsync(new UploadRequest(".ft-uploads/x"), Infrastructure.Sessions.Owner, null, Token));
        await Refusals.AssertAsync(ErrorReason.FileTooLarge, async () => await Core.CreateAsync(new UploadRequest("big.bin") { DeclaredLength = 10_000_001 }, Infrastructure.Sessions.Owner, null, Token));
        await Refusals.AssertAsync(ErrorReason.FileExists, async () => await Core.CreateAsync(new UploadRequest("taken.bin") { Preconditions = new Preconditions(MustNotExist: true) }, Infrastructure.Sessions.Owner, null, Token));
        await Refusals.AssertAsync(ErrorReason.NameConflict, async () => await Core.CreateAsync(new UploadRequest("taken.bin/under.bin"), Infrastructure.Sessions.Owner, null, Token));
        Assert.Equal(["taken.bin"], _sessions.Visible());
    }

    [Fact]
    public async Task An_Append_At_Another_Offset_Is_Refused_With_The_Durable_Offset()
    {
        var session = await Core.CreateAsync(new UploadRequest("offset.bin"), Infrastructure.Sessions.Owner, null, Token);
        await _sessions.AppendAsync(Core, session.Id, 0, TestBytes.Random(1000), UploadEnd.Partial);

        var refused = await Refusals.AssertAsync(ErrorReason.UploadOffsetMismatch, () => _sessions.AppendAsync(Core, session.Id, 500, TestBytes.Random(10), UploadEnd.Partial));

        Assert.Equal((1000L, 500L), (refused.ExpectedOffset, refused.ProvidedOffset));
        Assert.Equal(1000, (await Core.GetAsync(session.Id, Infrastructure.Sessions.Owner, Token)).Offset);
    }

    [Fact]
    public async Task A_Second_Writer_Is_Refused_While_The_First_Appends_Also_From_Another_Process()
    {
        var session = await Core.CreateAsync(new UploadRequest("busy.bin"), Infrastructure.Sessions.Owner, null, Token);

        await using (var first = await Core.BeginWriteAsync(new UploadWriteRequest(session.Id, Infrastructure.Sessions.Owner, 0), Token))
        {
            await first.AppendAsync(TestBytes.Random(100), Token);
            await Refusals.AssertAsync(ErrorReason.UploadBusy, async () => await Core.BeginWriteAsync(new UploadWriteRequest(session.Id, Infrastructure.Sessions.Owner, 0), Token));
            await Refusals.AssertAsync(ErrorReason.UploadBusy, async () => await _sessions.Restart().BeginWriteAsync(new UploadWriteRequest(session.Id, Infrastructure.Sessions.Owner, 0), Token));
            await first.FinishAsync(UploadEnd.Partial, Token);
        }

        await _sessions.AppendAsync(Core, session.Id, 100, TestBytes.Random(1), UploadEnd.Partial);
    }

    [Fact]
    public async Task Only_The_Owner_Continues_A_Session_And_A_Delete_Key_May_Only_Query_And_Cancel_It()
    {
        var session = await Core.CreateAsync(new UploadRequest("owned.bin"), Infrastructure.Sessions.Owner, null, Token);
        var stranger = Caller.ForKey("stranger", Scopes.All.Where(s => s != Scopes.Delete));

        await Refusals.AssertAsync(ErrorReason.PermissionDenied, async () => await Core.GetAsync(session.Id, stranger, Token));
        await Refusals.AssertAsync(ErrorReason.PermissionDenied, () => _sessions.AppendAsync(Core, session.Id, 0, TestBytes.Random(5), UploadEnd.Partial, stranger));
        await Refusals.AssertAsync(ErrorReason.PermissionDenied, async () => await Core.CancelAsync(session.Id, stranger, TransferProtocol.Tus, Token));

        // Issue 28 defect 5: a delete-scope key may query and cancel anyone's session, and no more.
        var admin = Caller.ForKey("admin", Scopes.All);
        await Refusals.AssertAsync(ErrorReason.PermissionDenied, () => _sessions.AppendAsync(Core, session.Id, 0, TestBytes.Random(5), UploadEnd.Partial, admin));
        await Refusals.AssertAsync(ErrorReason.PermissionDenied, () => _sessions.AppendAsync(Core, session.Id, 0, TestBytes.Random(5), UploadEnd.Complete, admin));
        await _sessions.AppendAsync(Core, session.Id, 0, TestBytes.Random(5), UploadEnd.Partial);
        Assert.Equal(5, (await Core.GetAsync(session.Id, admin, Token)).Offset);
        await Core.CancelAsync(session.Id, admin, TransferProtocol.Tus, Token);
        await Refusals.AssertAsync(ErrorReason.UploadNotFound, async () => await Core.GetAsync(session.Id, Infrastructure.Sessions.Owner, Token));
    }

    [Fact]
    public async Task Ids_That_Are_Not_Ids_Are_Not_Found()
    {
        foreach (var id in new[] { "", "../../etc/passwd", "abc", new string('A', 23), "AAAAAAAAAAAAAAAAAAAA/A" })
        {
            await Refusals.AssertAsync(ErrorReason.UploadNotFound, async () => await Core.GetAsync(id, Infrastructure.Sessions.Owner, Token));
        }
    }

    [Fact]
    public async Task Bytes_Past_The_Declared_Length_Or_The_Limit_Are_Refused_And_What_Came_Before_Is_Kept()
    {
        var declared = await Core.CreateAsync(new UploadRequest("declared.bin") { DeclaredLength = 1000 }, Infrastructure.Sessions.Owner, null, Token);
        await Refusals.AssertAsync(ErrorReason.SizeMismatch, () => _sessions.AppendAsync(Core, declared.Id, 0, TestBytes.Random(1001), UploadEnd.Partial));

        var capped = await Core.CreateAsync(new UploadRequest("capped.bin") { MaxBytes = 300_000 }, Infrastructure.Sessions.Owner, null, Token);
        await Refusals.AssertAsync(ErrorReason.FileTooLarge, () => _sessions.AppendAsync(Core, capped.Id, 0, TestBytes.Random(300_001), UploadEnd.Partial));
        Assert.InRange((await Core.GetAsync(capped.Id, Infrastructure.Sessions.Owner, Token)).Offset, 1, 300_000);
        Assert.Empty(_sessions.Visible());
    }

    [Fact]
    public async Task A_Deferred_Length_Is_Declared_Once_And_Completes_The_Upload_When_Reached()
    {
        var bytes = TestBytes.Random(2000);
        var session = await Core.CreateAsync(new UploadRequest("deferred.bin"), Infrastructure.Sessions.Owner, null, Token);
        await _sessions.AppendAsync(Core, session.Id, 0, bytes.AsMemory(0, 1500), UploadEnd.AtLength);
        Assert.Null((await Core.GetAsync(session.Id, Infrastructure.Sessions.Owner, Token)).Length);

        await Refusals.AssertAsync(ErrorReason.SizeMismatch, async () => await Core.BeginWriteAsync(new UploadWriteRequest(session.Id, Infrastructure.Sessions.Owner, 1500) { Length = 1000 }, Token));
        await Refusals.AssertAsync(ErrorReason.FileTooLarge, async () => await Core.BeginWriteAsync(new UploadWriteRequest(session.Id, Infrastructure.Sessions.Owner, 1500) { Length = 10_000_001 }, Token));
        await using (var write = await Core.BeginWriteAsync(new UploadWriteRequest(session.Id, Infrastructure.Sessions.Owner, 1500) { Length = 2000 }, Token))
        {
            await write.AppendAsync(bytes.AsMemory(1500), Token);
            Assert.NotNull((await write.FinishAsync(UploadEnd.AtLength, Token)).Stored);
        }

        Assert.Equal(bytes, _sessions.Read("deferred.bin"));
    }

    [Fact]
    public async Task A_Request_Whose_Checksum_Does_Not_Match_Keeps_None_Of_Its_Bytes()
    {
        var session = await Core.CreateAsync(new UploadRequest("checked.bin"), Infrastructure.Sessions.Owner, null, Token);
        var bytes = TestBytes.Random(400_000);

        await using (var write = await Core.BeginWriteAsync(new UploadWriteRequest(session.Id, Infrastructure.Sessions.Owner, 0) { Checksum = RequestChecksum.Create("sha256", SHA256.HashData([1])) }, Token))
        {
            await write.AppendAsync(bytes, Token);
            await Refusals.AssertAsync(ErrorReason.ChecksumMismatch, async () => await write.FinishAsync(UploadEnd.Partial, Token));
        }

        Assert.Equal(0, (await Core.GetAsync(session.Id, Infrastructure.Sessions.Owner, Token)).Offset);
        await using (var write = await Core.BeginWriteAsync(new UploadWriteRequest(session.Id, Infrastructure.Sessions.Owner, 0) { Checksum = RequestChecksum.Create("sha1", SHA1.HashData(bytes)) }, Token))
        {
            await write.AppendAsync(bytes, Token);
            Assert.Equal(bytes.Length, (await write.FinishAsync(UploadEnd.Partial, Token)).Session.Offset);
        }

        Assert.Throws<FileTransferException>(() => RequestChecksum.Create("md5", new byte[16]));
        Assert.Throws<FileTransferException>(() => RequestChecksum.Create("sha256", new byte[20]));
    }

    [Fact]
    public async Task An_Interrupted_Request_Keeps_What_Arrived_Unless_It_Carried_A_Checksum()
    {
        var bytes = TestBytes.Random(700_000);
        var session = await Core.CreateAsync(new UploadRequest("cut.bin"), Infrastructure.Sessions.Owner, null, Token);

        await using (var write = await Core.BeginWriteAsync(new UploadWriteRequest(session.Id, Infrastructure.Sessions.Owner, 0), Token))
        {
            await write.AppendAsync(bytes.AsMemory(0, 300_001), Token);
        }

        Assert.Equal(300_001, (await Core.GetAsync(session.Id, Infrastructure.Sessions.Owner, Token)).Offset);

        await using (var write = await Core.BeginWriteAsync(new UploadWriteRequest(session.Id, Infrastructure.Sessions.Owner, 300_001) { Checksum = RequestChecksum.Create("sha256", SHA256.HashData(bytes.AsSpan(300_001))) }, Token))
        {
            await write.AppendAsync(bytes.AsMemory(300_001, 100_000), Token);
        }

        Assert.Equal(300_001, (await Core.GetAsync(session.Id, Infrastructure.Sessions.Owner, Token)).Offset);
        await _sessions.AppendAsync(Core, session.Id, 300_001, bytes.AsMemory(300_001), UploadEnd.Complete);
        Assert.Equal(TestBytes.Sha256(bytes), TestBytes.Sha256(_sessions.Read("cut.bin")!));
    }

    [Fact]
    public async Task A_Long_Request_Is_Saved_Every_Checkpoint_While_It_Runs()
    {
        using var sessions = new Infrastructure.Sessions(checkpointBytes: 256 * 1024);
        var session = await sessions.Core.CreateAsync(new UploadRequest("long.bin"), Infrastructure.Sessions.Owner, null, Token);

        await using var write = await sessions.Core.BeginWriteAsync(new UploadWriteRequest(session.Id, Infrastructure.Sessions.Owner, 0), Token);
        await write.AppendAsync(TestBytes.Random(600_000), Token);

        // Another process sees a durable offset while the request still runs.
        var seen = await sessions.Restart().GetAsync(session.Id, Infrastructure.Sessions.Owner, Token);
        Assert.InRange(seen.Offset, 256 * 1024, 600_000);
    }

    [Fact]
    public async Task A_Final_Digest_That_Does_Not_Match_Ends_The_Session_And_Keeps_The_Previous_Version()
    {
        _sessions.Root.Write("versioned.bin", [7, 7, 7]);
        var bytes = TestBytes.Random(1234);
        var session = await Core.CreateAsync(new UploadRequest("versioned.bin") { ExpectedSha256 = SHA256.HashData([1, 2, 3]) }, Infrastructure.Sessions.Owner, null, Token);
        await _sessions.AppendAsync(Core, session.Id, 0, bytes.AsMemory(0, 1000), UploadEnd.Partial);

        await Refusals.AssertAsync(ErrorReason.DigestMismatch, () => _sessions.AppendAsync(Core, session.Id, 1000, bytes.AsMemory(1000), UploadEnd.Complete));

        Assert.Equal([7, 7, 7], _sessions.Read("versioned.bin"));
        await Refusals.AssertAsync(ErrorReason.UploadNotFound, async () => await Core.GetAsync(session.Id, Infrastructure.Sessions.Owner, Token));
        Assert.Equal([LocalUploadSessionStoreFolder, "versioned.bin"], _sessions.Root.Entries());
    }

    [Fact]
    public async Task Preconditions_Are_Checked_Again_At_The_Commit_And_A_Failed_One_Keeps_The_Session()
    {
        var bytes = TestBytes.Random(20);
        var session = await Core.CreateAsync(new UploadRequest("raced.bin") { Preconditions = new Preconditions(MustNotExist: true) }, Infrastructure.Sessions.Owner, null, Token);
        await _sessions.AppendAsync(Core, session.Id, 0, bytes.AsMemory(0, 10), UploadEnd.Partial);
        await Operations.UploadAsync(_sessions.Files, new UploadRequest("raced.bin"), [4, 5, 6]);

        await Refusals.AssertAsync(ErrorReason.FileExists, () => _sessions.AppendAsync(Core, session.Id, 10, bytes.AsMemory(10), UploadEnd.Complete));

        Assert.Equal([4, 5, 6], _sessions.Read("raced.bin"));
        var kept = await Core.GetAsync(session.Id, Infrastructure.Sessions.Owner, Token);
        Assert.Equal((20L, false), (kept.Offset, kept.IsComplete));

        // The file that was in the way goes: the commit, asked for again with no bytes, stores every byte.
        await _sessions.Files.DeleteAsync(Caller.ForKey("admin", Scopes.All), TransferProtocol.Rest, "raced.bin", Preconditions.None, Token);
        await _sessions.AppendAsync(Core, session.Id, 20, ReadOnlyMemory<byte>.Empty, UploadEnd.Complete);
        Assert.Equal(bytes, _sessions.Read("raced.bin"));
    }

    [Fact]
    public async Task A_Completed_Session_Says_So_And_Takes_No_More_Bytes()
    {
        var session = await Core.CreateAsync(new UploadRequest("done.bin"), Infrastructure.Sessions.Owner, null, Token);
        var outcome = await _sessions.AppendAsync(Core, session.Id, 0, TestBytes.Random(10), UploadEnd.Complete);

        Assert.False(outcome.Stored!.Replaced);
        var completed = await _sessions.Restart().GetAsync(session.Id, Infrastructure.Sessions.Owner, Token);
        Assert.Equal((10L, 10L, outcome.Stored.File.ETag), (completed.Offset, completed.Length!.Value, completed.Completed!.Stored.ETag));
        await Refusals.AssertAsync(ErrorReason.UploadCompleted, () => _sessions.AppendAsync(Core, session.Id, 10, TestBytes.Random(1), UploadEnd.Complete));
    }

    [Fact]
    public async Task A_Complete_Request_Short_Of_The_Declared_Length_Is_Refused_And_The_Upload_Goes_On()
    {
        var bytes = TestBytes.Random(100);
        var session = await Core.CreateAsync(new UploadRequest("short.bin") { DeclaredLength = 100 }, Infrastructure.Sessions.Owner, null, Token);

        await Refusals.AssertAsync(ErrorReason.SizeMismatch, () => _sessions.AppendAsync(Core, session.Id, 0, bytes.AsMemory(0, 60), UploadEnd.Complete));

        await _sessions.AppendAsync(Core, session.Id, 60, bytes.AsMemory(60), UploadEnd.Complete);
        Assert.Equal(bytes, _sessions.Read("short.bin"));
    }

    [Fact]
    public async Task An_Expired_Session_Is_Refused_And_The_Sweep_Removes_It_With_Its_Bytes()
    {
        var session = await Core.CreateAsync(new UploadRequest("old/file.bin"), Infrastructure.Sessions.Owner, null, Token);
        await _sessions.AppendAsync(Core, session.Id, 0, TestBytes.Random(5000), UploadEnd.Partial);
        var active = await Core.CreateAsync(new UploadRequest("new.bin"), Infrastructure.Sessions.Owner, null, Token);

        _sessions.Time.Advance(TimeSpan.FromMinutes(30));
        await _sessions.AppendAsync(Core, active.Id, 0, TestBytes.Random(10), UploadEnd.Partial); // moves its expiry
        _sessions.Time.Advance(TimeSpan.FromMinutes(31));

        await Refusals.AssertAsync(ErrorReason.UploadExpired, async () => await Core.GetAsync(session.Id, Infrastructure.Sessions.Owner, Token));
        await Refusals.AssertAsync(ErrorReason.UploadExpired, () => _sessions.AppendAsync(Core, session.Id, 5000, TestBytes.Random(1), UploadEnd.Partial));
        Assert.Equal(1, await Core.RemoveExpiredAsync(Token));

        await Refusals.AssertAsync(ErrorReason.UploadNotFound, async () => await Core.GetAsync(session.Id, Infrastructure.Sessions.Owner, Token));
        Assert.Equal(10, (await Core.GetAsync(active.Id, Infrastructure.Sessions.Owner, Token)).Offset);
        Assert.DoesNotContain(_sessions.Root.Entries(), e => e.StartsWith("old", StringComparison.Ordinal) || e.Contains(session.Id, StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_Cancel_Stops_A_Writer_Of_This_Process_And_Removes_The_Session()
    {
        var session = await Core.CreateAsync(new UploadRequest("stop.bin"), Infrastructure.Sessions.Owner, null, Token);
        var write = await Core.BeginWriteAsync(new UploadWriteRequest(session.Id, Infrastructure.Sessions.Owner, 0), Token);
        await write.AppendAsync(TestBytes.Random(1000), Token);

        // The protocol ends its request when told to stop; here the "request" is this task.
        var writer = Task.Run(async () =>
        {
            await Task.Delay(Timeout.Infinite, write.Stopped).ContinueWith(_ => { }, TaskScheduler.Default);
            await write.DisposeAsync();
        });
        await Core.CancelAsync(session.Id, Infrastructure.Sessions.Owner, TransferProtocol.Tus, Token);
        await writer;

        await Refusals.AssertAsync(ErrorReason.UploadNotFound, async () => await Core.GetAsync(session.Id, Infrastructure.Sessions.Owner, Token));
        Assert.Equal([LocalUploadSessionStoreFolder], _sessions.Root.Entries());
    }

    public void Dispose() => _sessions.Dispose();

    private const string LocalUploadSessionStoreFolder = FileNames.ReservedPrefix + "uploads";
}
