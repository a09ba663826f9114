using System.Diagnostics;
using System.Security.Cryptography;
using FileTransfer.Core.Tests.Infrastructure;
using FileTransfer.Storage.S3;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core.Tests.S3;

/// <summary>
/// The write leases that make conditional commits atomic where RGW 16 ignores the conditions
/// (CompleteMultipartUpload, DeleteObject): two replicas (two backends with their own clients) on
/// one prefix, racing through multipart uploads; a lease a crashed holder left behind; a holder that
/// outlived its lease.
/// </summary>
public sealed class S3LeaseTests(S3TestBucket bucket) : IClassFixture<S3TestBucket>, IAsyncLifetime
{
    private readonly string _prefix = S3TestBucket.NewPrefix();

    private static CancellationToken Token => TestTimeout.Token;

    [Fact]
    public async Task Two_Replicas_Replacing_One_Version_Through_Multipart_Uploads_Never_Both_Win()
    {
        var (a, b) = (Multipart(), Multipart());
        for (var round = 0; round < 10; round++)
        {
            var v1 = await StoreAsync(a, "duel.bin", TestBytes.Random(100), Preconditions.None);
            byte[][] sources = [TestBytes.Random(1000), TestBytes.Random(1000)];
            var mustMatch = Preconditions.IfMatches(v1.Object.ETag);

            var outcomes = await Task.WhenAll(
                Task.Run(() => TryStoreAsync(a, "duel.bin", sources[0], mustMatch)),
                Task.Run(() => TryStoreAsync(b, "duel.bin", sources[1], mustMatch)));

            var winner = Assert.Single(outcomes, o => o.Committed is not null);
            Assert.Equal(ErrorReason.EtagMismatch, Assert.Single(outcomes, o => o.Refused is not null).Refused);
            await AssertHoldsAsync(b, "duel.bin", sources[Array.IndexOf(outcomes, winner)]);
        }

        Assert.Empty(await bucket.UploadsAsync(_prefix));
        Assert.Empty(await bucket.KeysAsync(_prefix + ".ft-lease/"));
    }

    [Fact]
    public async Task Two_Replicas_Creating_One_Name_Through_Multipart_Uploads_Only_One_Creates()
    {
        var (a, b) = (Multipart(), Multipart());
        for (var round = 0; round < 10; round++)
        {
            byte[][] sources = [TestBytes.Random(1000), TestBytes.Random(1000)];
            var mustNotExist = new Preconditions(MustNotExist: true);

            var outcomes = await Task.WhenAll(
                Task.Run(() => TryStoreAsync(a, $"new-{round}.bin", sources[0], mustNotExist)),
                Task.Run(() => TryStoreAsync(b, $"new-{round}.bin", sources[1], mustNotExist)));

            var winner = Assert.Single(outcomes, o => o.Committed is not null);
            Assert.Equal(ErrorReason.FileExists, Assert.Single(outcomes, o => o.Refused is not null).Refused);
            await AssertHoldsAsync(a, $"new-{round}.bin", sources[Array.IndexOf(outcomes, winner)]);
        }
    }

    [Fact]
    public async Task A_Delete_And_A_Conditional_Replace_Through_Two_Replicas_Do_Not_Both_Act_On_One_Version()
    {
        var (a, b) = (Multipart(), Multipart());
        for (var round = 0; round < 10; round++)
        {
            var v1 = await StoreAsync(a, "delete-race.bin", TestBytes.Random(100), Preconditions.None);
            var replacement = TestBytes.Random(1000);
            var mustMatch = Preconditions.IfMatches(v1.Object.ETag);

            var replace = Task.Run(() => TryStoreAsync(a, "delete-race.bin", replacement, mustMatch));
            var delete = Task.Run(async () =>
            {
                try
                {
                    return await b.DeleteAsync("delete-race.bin", mustMatch, Token) is not null;
                }
                catch (FileTransferException refused) when (refused.Reason == ErrorReason.EtagMismatch)
                {
                    return false;
                }
            });
            var (replaced, deleted) = (await replace, await delete);

            // Exactly one of them acted on v1; the other saw what it left.
            Assert.True((replaced.Committed is not null) ^ deleted, $"replaced: {replaced.Committed is not null}, deleted: {deleted}");
            var current = await a.StatAsync("delete-race.bin", Token);
            Assert.Equal(replaced.Committed?.Object.ETag, current?.ETag);
        }
    }

    [Fact]
    public async Task A_Lease_Left_By_A_Crashed_Holder_Holds_Writers_Off_Until_It_Expires_Then_Is_Taken_Over()
    {
        var duration = TimeSpan.FromSeconds(3);
        var backend = Multipart(o => o.LeaseDuration = duration);
        var leaseKey = Client(o => o.LeaseDuration = duration).ReservedKeyFor("lease", "crashed.bin");
        var expires = DateTimeOffset.UtcNow + duration;
        await bucket.Client.PutObjectAsync(new() { BucketName = bucket.Name, Key = leaseKey, ContentBody = $"{expires.ToUnixTimeMilliseconds()} crashed crashed.bin\n" }, Token);

        var clock = Stopwatch.StartNew();
        var committed = await StoreAsync(backend, "crashed.bin", TestBytes.Random(100), new Preconditions(MustNotExist: true));

        Assert.False(committed.Replaced);
        Assert.InRange(clock.Elapsed, duration - TimeSpan.FromSeconds(1), duration + TimeSpan.FromSeconds(20));
        Assert.DoesNotContain(leaseKey, await bucket.KeysAsync(_prefix));
    }

    [Fact]
    public async Task A_Live_Lease_Is_Waited_For_Never_Taken_Over()
    {
        var client = Client();
        var holder = Leases(client);
        var writer = Multipart();
        var held = await holder.AcquireAsync(["held.bin"], Token);

        var write = Task.Run(() => StoreAsync(writer, "held.bin", TestBytes.Random(100), Preconditions.None));
        await Task.Delay(TimeSpan.FromSeconds(1.5), Token);
        var finishedWhileHeld = write.IsCompleted;
        await held.DisposeAsync();
        await write;

        Assert.False(finishedWhileHeld);
        Assert.Empty(await bucket.KeysAsync(_prefix + ".ft-lease/"));
    }

    [Fact]
    public async Task A_Holder_That_Outlived_Its_Lease_Never_Removes_The_Lease_Someone_Else_Took_Over()
    {
        var client = Client(o => o.LeaseDuration = TimeSpan.FromSeconds(1));
        // One clock for both holders, moved by the test: the first lease lapses without a wait.
        var time = new ManualTime();
        var slow = Leases(client, TimeSpan.FromSeconds(1), time);
        var other = Leases(client, TimeSpan.FromSeconds(30), time);
        var stale = await slow.AcquireAsync(["taken.bin"], Token);
        time.Advance(TimeSpan.FromSeconds(1.3));

        var taken = await other.AcquireAsync(["taken.bin"], Token);
        await stale.DisposeAsync();
        var stillThere = await bucket.KeysAsync(_prefix + ".ft-lease/");
        await taken.DisposeAsync();

        Assert.Single(stillThere);
        Assert.Empty(await bucket.KeysAsync(_prefix + ".ft-lease/"));
    }

    private S3StorageBackend Multipart(Action<S3StorageOptions>? configure = null)
    {
        var backend = bucket.Backend(_prefix, configure);
        backend.MaxHeldBytes = 0;
        return backend;
    }

    private BucketClient Client(Action<S3StorageOptions>? configure = null)
    {
        var settings = new S3StorageOptions
        {
            ServiceUrl = bucket.Rgw.ServiceUrl.ToString(),
            Bucket = bucket.Name,
            AccessKey = bucket.Rgw.AccessKey,
            SecretKey = bucket.Rgw.SecretKey,
            Prefix = _prefix,
        };
        configure?.Invoke(settings);
        return new BucketClient(Options.Create(settings));
    }

    private static NameLeases Leases(BucketClient client, TimeSpan? duration = null, TimeProvider? time = null) =>
        new(client, Options.Create(new S3StorageOptions { LeaseDuration = duration ?? TimeSpan.FromSeconds(60) }), time ?? TimeProvider.System, NullLogger<NameLeases>.Instance);

    private static async Task<CommittedObject> StoreAsync(IStorageBackend backend, string name, byte[] bytes, Preconditions preconditions)
    {
        await using var staged = await backend.StageAsync(name, bytes.Length, Token);
        await staged.WriteAsync(bytes, Token);
        await staged.SealAsync(Token);
        return Assert.Single(await backend.CommitAsync([new PendingCommit(staged, preconditions, SHA256.HashData(bytes))], Token));
    }

    private static async Task<(CommittedObject? Committed, ErrorReason? Refused)> TryStoreAsync(IStorageBackend backend, string name, byte[] bytes, Preconditions preconditions)
    {
        try
        {
            return (await StoreAsync(backend, name, bytes, preconditions), null);
        }
        catch (FileTransferException refused)
        {
            return (null, refused.Reason);
        }
    }

    private static async Task AssertHoldsAsync(IStorageBackend backend, string name, byte[] expected)
    {
        await using var opened = await backend.OpenAsync(name, Token);
        Assert.NotNull(opened);
        await using var read = await opened.OpenReadAsync(0, opened.Object.Size, Token);
        Assert.Equal(TestBytes.Sha256(expected), TestBytes.Sha256(await TestBytes.ReadToEndAsync(read, Token)));
        Assert.Equal(TestBytes.Sha256(expected), Convert.ToHexString(opened.Object.Sha256 ?? []));
    }

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync() => await bucket.EmptyAsync(_prefix);
}
