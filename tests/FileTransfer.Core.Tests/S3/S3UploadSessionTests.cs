using System.Security.Cryptography;
using FileTransfer.Core.Tests.Infrastructure;
using FileTransfer.Storage.S3;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core.Tests.S3;

/// <summary>
/// Resumable uploads on the real Ceph RGW with two replicas (two backends and session stores with
/// their own clients) on one prefix, through the core's <see cref="UploadSessions"/>: a session
/// begun on one is finished on the other, one writer at a time across them, a dead holder's lease
/// lapses, expired sessions go with their multipart upload, and the abandoned-upload sweep spares
/// the uploads of live sessions. Files here pass a part (8 MiB for a 64 MiB limit) plus a tail.
/// </summary>
public sealed class S3UploadSessionTests(S3TestBucket bucket) : IClassFixture<S3TestBucket>, IAsyncLifetime
{
    private const long MaxFileSize = 64L * 1024 * 1024;
    private const int Part = 8 * 1024 * 1024;

    private static readonly Caller Owner = Infrastructure.Sessions.Owner;

    private readonly string _prefix = S3TestBucket.NewPrefix();
    private readonly ManualTime _time = new();

    private static CancellationToken Token => TestTimeout.Token;

    [Fact]
    public async Task A_Session_Begun_On_One_Replica_Is_Finished_On_Another_With_Every_Byte_And_Its_Sha256()
    {
        var bytes = TestBytes.Random(Part + (3 * 1024 * 1024) + 12_345);
        var (a, b) = (Replica(), Replica());
        var session = await a.Core.CreateAsync(new UploadRequest("resumed/big.bin") { DeclaredLength = bytes.Length, ExpectedSha256 = SHA256.HashData(bytes) }, Owner, null, Token);

        // One part and a tail: the tail must be durable although it is shorter than a part.
        var first = Part + (1024 * 1024) + 7;
        await AppendAsync(a.Core, session.Id, 0, bytes.AsMemory(0, first), UploadEnd.Partial);
        Assert.Equal(first, (await b.Core.GetAsync(session.Id, Owner, Token)).Offset);
        Assert.Single(await bucket.UploadsAsync(_prefix));

        var outcome = await AppendAsync(b.Core, session.Id, first, bytes.AsMemory(first), UploadEnd.AtLength);

        Assert.Equal(SHA256.HashData(bytes), outcome.Stored!.Sha256);
        await using var opened = await a.Backend.OpenAsync("resumed/big.bin", Token);
        Assert.Equal(SHA256.HashData(bytes), opened!.Object.Sha256);
        await using var read = await opened.OpenReadAsync(0, opened.Object.Size, Token);
        Assert.Equal(TestBytes.Sha256(bytes), TestBytes.Sha256(await TestBytes.ReadToEndAsync(read, Token)));
        Assert.Empty(await bucket.UploadsAsync(_prefix));
        Assert.DoesNotContain(await bucket.KeysAsync(_prefix), k => k.Contains(".tail-", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_Second_Writer_On_Another_Replica_Is_Refused_And_A_Dead_Holders_Lease_Lapses()
    {
        var (a, b) = (Replica(TimeSpan.FromSeconds(2)), Replica(TimeSpan.FromSeconds(2)));
        var session = await a.Core.CreateAsync(new UploadRequest("busy.bin"), Owner, null, Token);

        // A writer that never ends: as a replica that died holding the lease.
        await using var dead = await a.Store.TryAcquireAsync(session.Id, Token);
        Assert.NotNull(dead);
        await Refusals.AssertAsync(ErrorReason.UploadBusy, () => AppendAsync(b.Core, session.Id, 0, TestBytes.Random(10), UploadEnd.Partial));

        // The lease lapses on the replicas' clock, which the test moves: no waiting on the wall clock.
        _time.Advance(TimeSpan.FromSeconds(2.5));
        await AppendAsync(b.Core, session.Id, 0, TestBytes.Random(10), UploadEnd.Partial);

        // The holder that lost its lease is refused at its next step and changes nothing.
        await Refusals.AssertAsync(ErrorReason.UploadBusy, async () => await dead.WriteAsync(TestBytes.Random(5), Token));
        await Refusals.AssertAsync(ErrorReason.UploadBusy, async () => await dead.SaveAsync(dead.Session with { Offset = 0 }, Token));
        Assert.Equal(10, (await a.Core.GetAsync(session.Id, Owner, Token)).Offset);
    }

    [Fact]
    public async Task The_Session_Sweep_Removes_An_Expired_Session_With_Its_Multipart_Upload_Tail_And_Record()
    {
        var (a, b) = (Replica(), Replica());
        var session = await a.Core.CreateAsync(new UploadRequest("expired/file.bin"), Owner, null, Token);
        await AppendAsync(a.Core, session.Id, 0, TestBytes.Random(Part + 1000), UploadEnd.Partial);
        Assert.Single(await bucket.UploadsAsync(_prefix));

        _time.Advance(TimeSpan.FromHours(2));

        Assert.Equal(1, await b.Core.RemoveExpiredAsync(Token));
        Assert.Empty(await bucket.UploadsAsync(_prefix));
        Assert.Empty(await bucket.KeysAsync(_prefix));
    }

    [Fact]
    public async Task The_Abandoned_Upload_Sweep_Spares_A_Live_Sessions_Upload_However_Idle()
    {
        var a = Replica();
        var session = await a.Core.CreateAsync(new UploadRequest("idle.bin"), Owner, null, Token);
        await AppendAsync(a.Core, session.Id, 0, TestBytes.Random(Part + 1), UploadEnd.Partial);
        var other = bucket.Replica(_prefix, maxFileSizeBytes: MaxFileSize);
        var settings = Options.Create(new S3StorageOptions { ServiceUrl = bucket.Rgw.ServiceUrl.ToString(), Bucket = bucket.Name, AccessKey = bucket.Rgw.AccessKey, SecretKey = bucket.Rgw.SecretKey, Prefix = _prefix });
        using var client = new BucketClient(settings);
        var sweeper = new AbandonedUploadSweeper(client, other.Backend, other.Sessions, settings, TimeProvider.System, NullLogger<AbandonedUploadSweeper>.Instance);

        Assert.Equal(0, await sweeper.SweepAsync(DateTimeOffset.UtcNow.AddHours(1), Token));

        Assert.Single(await bucket.UploadsAsync(_prefix));
        Assert.Equal(Part + 1, (await a.Core.GetAsync(session.Id, Owner, Token)).Offset);
    }

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync() => await bucket.EmptyAsync(_prefix);

    // One replica: its own client, backend, session store and core, on the test's clock for expiry.
    private (S3StorageBackend Backend, S3UploadSessionStore Store, UploadSessions Core) Replica(TimeSpan? leaseDuration = null)
    {
        var (backend, store) = bucket.Replica(_prefix, s => s.LeaseDuration = leaseDuration ?? s.LeaseDuration, MaxFileSize, _time);
        var core = new UploadSessions(
            Operations.Over(backend, MaxFileSize),
            store,
            Options.Create(new UploadSessionOptions { ExpirySeconds = 3600 }),
            _time,
            NullLogger<UploadSessions>.Instance);
        return (backend, store, core);
    }

    private static async Task<UploadSessionOutcome> AppendAsync(UploadSessions core, string id, long offset, ReadOnlyMemory<byte> bytes, UploadEnd end)
    {
        await using var write = await core.BeginWriteAsync(new UploadWriteRequest(id, Owner, offset), Token);
        foreach (var piece in TestBytes.Pieces(bytes.ToArray(), 300_000))
        {
            await write.AppendAsync(piece, Token);
        }

        return await write.FinishAsync(end, Token);
    }
}
