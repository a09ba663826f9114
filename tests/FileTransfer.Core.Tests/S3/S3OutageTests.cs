using FileTransfer.Core.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Storage.S3;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core.Tests.S3;

/// <summary>
/// The backend while the store is down, through a <see cref="GatewayProxy"/> the test kills and brings
/// back: every step of a write that the store fails (starting the multipart upload, a part, the
/// commit's lease) is <see cref="ErrorReason.StorageUnavailable"/>, never an SDK exception; and what
/// the outage leaves behind is cleaned up once the store answers again rather than by the daily
/// sweep or a lease's expiry: a multipart upload whose abort the store could not take, and a write
/// lease it could not release (which its own process takes back at once meanwhile).
/// </summary>
public sealed class S3OutageTests(S3TestBucket bucket) : IClassFixture<S3TestBucket>, IAsyncLifetime
{
    private const int Part = 8 * 1024 * 1024;

    private static readonly TimeSpan Soon = TimeSpan.FromSeconds(10);

    private readonly string _prefix = S3TestBucket.NewPrefix();
    private GatewayProxy _gateway = null!;

    private static CancellationToken Token => TestTimeout.Token;

    [Fact]
    public async Task Every_Write_Step_The_Store_Fails_Is_Storage_Unavailable()
    {
        var backend = bucket.Backend(_prefix, s => s.ServiceUrl = _gateway.Address.ToString(), maxFileSizeBytes: 64L * 1024 * 1024);
        await using var starting = await backend.StageAsync("start.bin", null, Token);
        await using var parted = await backend.StageAsync("part.bin", null, Token);
        await parted.WriteAsync(TestBytes.Random(Part), Token);
        await using var small = await backend.StageAsync("small.bin", 10, Token);
        await small.WriteAsync(TestBytes.Random(10), Token);
        await small.SealAsync(Token);

        _gateway.Kill();
        try
        {
            await Refusals.AssertAsync(ErrorReason.StorageUnavailable, async () => await starting.WriteAsync(TestBytes.Random(Part), Token));
            await Refusals.AssertAsync(ErrorReason.StorageUnavailable, async () => await parted.WriteAsync(TestBytes.Random(Part), Token));
            await Refusals.AssertAsync(ErrorReason.StorageUnavailable, async () => await backend.CommitAsync([new PendingCommit(small, Preconditions.None, new byte[32])], Token));
            await Refusals.AssertAsync(ErrorReason.StorageUnavailable, async () => await backend.StageAsync("more.bin", null, Token));
        }
        finally
        {
            _gateway.Resume();
        }
    }

    [Fact]
    public async Task A_Multipart_Upload_The_Store_Could_Not_Abort_Is_Aborted_Once_It_Answers_Again()
    {
        var backend = bucket.Backend(_prefix, s => s.ServiceUrl = _gateway.Address.ToString(), maxFileSizeBytes: 64L * 1024 * 1024);
        var staged = await backend.StageAsync("cut.bin", null, Token);
        await staged.WriteAsync(TestBytes.Random(Part + 10), Token);
        Assert.Single(await bucket.UploadsAsync(_prefix));

        _gateway.Kill();
        await staged.DisposeAsync();
        Assert.Single(await bucket.UploadsAsync(_prefix));
        _gateway.Resume();

        await UntilAsync(async () => (await bucket.UploadsAsync(_prefix)).Count == 0, "the upload aborted");
    }

    [Fact]
    public async Task A_Lease_The_Store_Could_Not_Release_Is_Taken_Back_At_Once_By_Its_Process_And_Released_For_Others_Once_It_Answers()
    {
        using var throughGateway = Client(_gateway.Address);
        using var direct = Client(bucket.Rgw.ServiceUrl);
        var mine = Leases(throughGateway);
        var other = Leases(direct);

        // Its own process: the next writer of the name takes the lease back, without waiting for it to expire.
        await ReleaseDuringAnOutageAsync(mine, "mine.bin");
        using (var quick = CancellationTokenSource.CreateLinkedTokenSource(Token))
        {
            quick.CancelAfter(Soon);
            await using var again = await mine.AcquireAsync(["mine.bin"], quick.Token);
        }

        // Another replica: the release is made once the store answers, long before the 60 s lease expires.
        await ReleaseDuringAnOutageAsync(mine, "theirs.bin");
        using (var quick = CancellationTokenSource.CreateLinkedTokenSource(Token))
        {
            quick.CancelAfter(Soon);
            await using var theirs = await other.AcquireAsync(["theirs.bin"], quick.Token);
        }
    }

    public Task InitializeAsync()
    {
        _gateway = new GatewayProxy(bucket.Rgw.ServiceUrl);
        return Task.CompletedTask;
    }

    public async Task DisposeAsync()
    {
        await _gateway.DisposeAsync();
        await bucket.EmptyAsync(_prefix);
    }

    private async Task ReleaseDuringAnOutageAsync(NameLeases leases, string name)
    {
        var held = await leases.AcquireAsync([name], Token);
        _gateway.Kill();
        await held.DisposeAsync();
        _gateway.Resume();
    }

    private BucketClient Client(Uri serviceUrl) => new(Options.Create(new S3StorageOptions
    {
        ServiceUrl = serviceUrl.ToString(),
        Bucket = bucket.Name,
        AccessKey = bucket.Rgw.AccessKey,
        SecretKey = bucket.Rgw.SecretKey,
        Prefix = _prefix,
    }));

    private static NameLeases Leases(BucketClient client) =>
        new(client, Options.Create(new S3StorageOptions()), TimeProvider.System, NullLogger<NameLeases>.Instance);

    private static async Task UntilAsync(Func<Task<bool>> condition, string what)
    {
        var started = System.Diagnostics.Stopwatch.StartNew();
        while (!await condition())
        {
            Assert.True(started.Elapsed < Soon, $"not within {Soon.TotalSeconds} s: {what}");
            await Task.Delay(50, Token);
        }
    }
}
