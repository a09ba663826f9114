using System.Net;
using System.Security.Claims;
using System.Threading.RateLimiting;
using FileTransfer.Core;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Options;
using Microsoft.Extensions.Time.Testing;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// The per-client limiter on its own, on a fake clock: slots come back once per lease, the bucket
/// refills with time, a refusal for concurrency spends no token, and budgets of quiet clients are
/// dropped, but never one that is busy or still refilling.
/// </summary>
public sealed class ClientRateLimiterTests
{
    private readonly FakeTimeProvider _time = new();

    [Fact]
    public void Requests_No_Limit_Applies_To_Share_One_Lease_And_Allocate_Nothing()
    {
        using var limiter = Limiter();
        using var disabled = Limiter(enabled: false);
        var health = Request("/healthz");
        var api = Request("/api/files");
        limiter.AttemptAcquire(health).Dispose();
        disabled.AttemptAcquire(api).Dispose();

        var before = GC.GetAllocatedBytesForCurrentThread();
        var free = limiter.AttemptAcquire(health);
        var off = disabled.AttemptAcquire(api);
        free.Dispose();
        off.Dispose();
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(0, allocated);
        Assert.Same(ClientLeases.Unlimited, free);
        Assert.Same(ClientLeases.Unlimited, off);
        Assert.Equal(0, disabled.ClientCount);
    }

    [Fact]
    public void A_Started_Request_Allocates_Its_Lease_Only()
    {
        using var limiter = Limiter();
        var anonymous = Request("/api/files");
        var keyed = Request("/api/files", key: "k1");
        limiter.AttemptAcquire(anonymous).Dispose();
        limiter.AttemptAcquire(keyed).Dispose();

        var before = GC.GetAllocatedBytesForCurrentThread();
        using (limiter.AttemptAcquire(anonymous))
        using (limiter.AttemptAcquire(keyed))
        {
        }

        // Two leases of one reference each; the client's name (ip:...) is never built.
        Assert.InRange(GC.GetAllocatedBytesForCurrentThread() - before, 1, 64);
    }

    [Fact]
    public void One_Slot_Serves_Any_Number_Of_Requests_One_After_Another()
    {
        using var limiter = Limiter(concurrent: 1, burst: 1000);
        var request = Request("/api/files");

        for (var i = 0; i < 200; i++)
        {
            using var lease = limiter.AttemptAcquire(request);
            Assert.True(lease.IsAcquired, $"request {i}");
        }
    }

    [Fact]
    public void A_Lease_Gives_Its_Slot_Back_Once_And_A_Refusal_For_Concurrency_Spends_No_Token()
    {
        using var limiter = Limiter(perSecond: 1, burst: 2, concurrent: 1);
        var request = Request("/api/files", key: "k1");

        var first = limiter.AttemptAcquire(request);
        for (var i = 0; i < 5; i++)
        {
            AssertTooManyRunning(limiter.AttemptAcquire(request));
        }

        first.Dispose();
        first.Dispose();
        using var second = limiter.AttemptAcquire(request);

        // The second token was still there; the one slot is held again, disposing twice freed it once.
        Assert.True(second.IsAcquired);
        AssertTooManyRunning(limiter.AttemptAcquire(request));
        second.Dispose();
        Assert.True(TooFast(limiter.AttemptAcquire(request)) > TimeSpan.Zero);
    }

    [Fact]
    public void The_Bucket_Refills_With_Time_Up_To_The_Burst()
    {
        using var limiter = Limiter(perSecond: 2, burst: 3);
        var request = Request("/api/files");

        AssertStarts(limiter, request, 3);
        Assert.Equal(TimeSpan.FromMilliseconds(500), TooFast(limiter.AttemptAcquire(request)));
        _time.Advance(TimeSpan.FromMilliseconds(499));
        Assert.Equal(TimeSpan.FromMilliseconds(1), TooFast(limiter.AttemptAcquire(request)));
        _time.Advance(TimeSpan.FromMilliseconds(1));
        AssertStarts(limiter, request, 1);

        // Rested far longer than the bucket takes to fill: the burst again, and not one more.
        _time.Advance(TimeSpan.FromSeconds(30));
        AssertStarts(limiter, request, 3);
    }

    [Fact]
    public void Each_Client_Has_Its_Own_Budget()
    {
        using var limiter = Limiter(perSecond: 1, burst: 1);

        AssertStarts(limiter, Request("/api/files", address: "192.0.2.1"), 1);
        AssertStarts(limiter, Request("/api/files", address: "192.0.2.2"), 1);
        AssertStarts(limiter, Request("/api/files", address: "192.0.2.1", key: "k1"), 1);
        AssertStarts(limiter, Request("/api/files", address: "192.0.2.1", key: "k2"), 1);
        Assert.Equal(4, limiter.ClientCount);
    }

    [Fact]
    public void Idle_Budgets_Are_Dropped_But_Not_A_Busy_One_Or_One_Still_Refilling()
    {
        using var limiter = Limiter(perSecond: 1, burst: 100);
        for (var i = 0; i < 50; i++)
        {
            using var once = limiter.AttemptAcquire(Request("/api/files", address: $"198.51.100.{i}"));
            Assert.True(once.IsAcquired);
        }

        var busy = limiter.AttemptAcquire(Request("/api/files", key: "busy"));
        var drained = Request("/api/files", address: "203.0.113.9");
        AssertStarts(limiter, drained, 100);

        // Each of the fifty has its bucket full again after a second, idle for the limit by the second sweep.
        _time.Advance(ClientRateLimiter.IdleLimit * 2);
        Assert.Equal(2, limiter.ClientCount);

        // Kept, the drained client has 20 tokens after 20 s: not the full bucket a new budget would give it.
        AssertStarts(limiter, drained, 20);
        busy.Dispose();
        _time.Advance(ClientRateLimiter.IdleLimit * 2);
        Assert.Equal(1, limiter.ClientCount);
    }

    [Fact]
    public void An_Evicted_Budget_Starts_Nothing_And_Its_Client_Gets_A_New_One()
    {
        using var limiter = Limiter(perSecond: 1, burst: 1);
        var request = Request("/api/files");
        AssertStarts(limiter, request, 1);
        var budget = new ClientBudget(BudgetLimits.From(new RateLimitOptions()));

        Assert.True(budget.TryEvict(now: 0, idle: 0));
        Assert.Equal(BudgetAnswer.Evicted, budget.TryStart(now: 0, out _));
        _time.Advance(ClientRateLimiter.IdleLimit * 2);
        Assert.Equal(0, limiter.ClientCount);
        AssertStarts(limiter, request, 1);
    }

    private ClientRateLimiter Limiter(int perSecond = 50, int burst = 100, int concurrent = 16, bool enabled = true) =>
        new(Options.Create(new RateLimitOptions { PermitsPerSecond = perSecond, Burst = burst, ConcurrentTransfers = concurrent, Enabled = enabled }), _time);

    private static DefaultHttpContext Request(string path, string address = "192.0.2.1", string? key = null)
    {
        var context = new DefaultHttpContext();
        context.Request.Path = path;
        context.Connection.RemoteIpAddress = IPAddress.Parse(address);
        if (key is not null)
        {
            context.User = new CallerPrincipal(new ClaimsIdentity(ApiKeyStore.AuthenticationType), Caller.ForKey(key, [Scopes.Read]));
        }

        return context;
    }

    // Exactly count requests start, and the next is refused.
    private static void AssertStarts(ClientRateLimiter limiter, HttpContext request, int count)
    {
        for (var i = 0; i < count; i++)
        {
            using var lease = limiter.AttemptAcquire(request);
            Assert.True(lease.IsAcquired, $"request {i + 1} of {count}");
        }

        using var refused = limiter.AttemptAcquire(request);
        Assert.False(refused.IsAcquired, $"request {count + 1}");
    }

    private static void AssertTooManyRunning(RateLimitLease lease)
    {
        Assert.False(lease.IsAcquired);
        Assert.False(lease.TryGetMetadata(MetadataName.RetryAfter, out _));
    }

    private static TimeSpan TooFast(RateLimitLease lease)
    {
        Assert.False(lease.IsAcquired);
        Assert.True(lease.TryGetMetadata(MetadataName.RetryAfter, out var retryAfter));
        return retryAfter;
    }
}
