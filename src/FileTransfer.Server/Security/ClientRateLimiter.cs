using System.Collections.Concurrent;
using System.Net;
using System.Threading.RateLimiting;
using FileTransfer.Core;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>
/// The rate limiter's one partitioned limiter: per client, one <see cref="ClientBudget"/> holding
/// both limits, found by one lookup per request. It replaces two partitioned limiters chained (a
/// ConcurrencyLimiter and a TokenBucketRateLimiter per client), which looked the client up twice,
/// each under a lock, built its name twice and wrapped the two leases in a third. A request no limit
/// applies to (health, OpenAPI, reflection, limits off) gets the one unlimited lease and allocates
/// nothing; a started request allocates its lease only.
/// </summary>
/// <remarks>
/// Budgets of clients gone quiet are dropped, as the framework's partitioned limiter drops idle
/// limiters (10 s): anonymous clients are their IP addresses, and a crowd of them must not grow the
/// table for ever. A budget is dropped only when nothing runs on it and its bucket is full, that is
/// when it is the same as the new one the client's next request would get.
/// </remarks>
internal sealed class ClientRateLimiter : PartitionedRateLimiter<HttpContext>
{
    /// <summary>How long a budget stays idle before it is dropped, and how often they are looked at.</summary>
    internal static readonly TimeSpan IdleLimit = TimeSpan.FromSeconds(10);

    private readonly ConcurrentDictionary<ClientKey, ClientBudget> _budgets = new();
    private readonly BudgetLimits? _limits;
    private readonly TimeProvider _time;
    private readonly long _started;
    private readonly double _nanosecondsPerTick;
    private readonly ITimer? _sweeper;

    public ClientRateLimiter(IOptions<RateLimitOptions> options, TimeProvider time)
    {
        _time = time;
        _started = time.GetTimestamp();
        _nanosecondsPerTick = 1e9 / time.TimestampFrequency;
        if (options.Value.Enabled)
        {
            _limits = BudgetLimits.From(options.Value);
            _sweeper = time.CreateTimer(static limiter => ((ClientRateLimiter)limiter!).EvictIdle(), this, IdleLimit, IdleLimit);
        }
    }

    /// <summary>How many clients hold a budget now.</summary>
    internal int ClientCount => _budgets.Count;

    // Not kept: ClientLimitsMiddleware counts granted and refused leases (RateLimitingSeries).
    public override RateLimiterStatistics? GetStatistics(HttpContext resource) => null;

    protected override RateLimitLease AttemptAcquireCore(HttpContext resource, int permitCount)
    {
        if (_limits is null || !RateLimiting.Covers(resource.Request.Path))
        {
            return ClientLeases.Unlimited;
        }

        // A budget counts requests; the middleware asks for one permit each.
        ArgumentOutOfRangeException.ThrowIfNotEqual(permitCount, 1);
        var client = ClientKey.Of(resource);
        var now = Now();
        while (true)
        {
            var budget = _budgets.GetOrAdd(client, static (_, limits) => new ClientBudget(limits), _limits);
            switch (budget.TryStart(now, out var wait))
            {
                case BudgetAnswer.Started:
                    return ClientLeases.Running(budget);
                case BudgetAnswer.TooManyRunning:
                    return ClientLeases.TooManyRunning;
                case BudgetAnswer.TooFast:
                    return ClientLeases.TooFast(TimeSpan.FromTicks((wait + 99) / 100));
                case BudgetAnswer.Evicted:
                    // Evicted between the lookup and now: drop it (if the sweeper has not yet) and take the client's new one.
                    _budgets.TryRemove(KeyValuePair.Create(client, budget));
                    break;
            }
        }
    }

    // Nothing queues (the chained limiters had QueueLimit 0): waiting is trying once more.
    protected override ValueTask<RateLimitLease> AcquireAsyncCore(HttpContext resource, int permitCount, CancellationToken cancellationToken) =>
        ValueTask.FromResult(AttemptAcquireCore(resource, permitCount));

    /// <summary>Drops the budgets idle for <see cref="IdleLimit"/>; the timer calls it every <see cref="IdleLimit"/>.</summary>
    internal void EvictIdle()
    {
        var now = Now();
        var idle = (long)(IdleLimit.TotalSeconds * 1e9);
        foreach (var (client, budget) in _budgets)
        {
            if (budget.TryEvict(now, idle))
            {
                _budgets.TryRemove(KeyValuePair.Create(client, budget));
            }
        }
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _sweeper?.Dispose();
        }
    }

    protected override ValueTask DisposeAsyncCore() => _sweeper?.DisposeAsync() ?? ValueTask.CompletedTask;

    // Nanoseconds since the limiter was built: the clock every budget's bucket runs on.
    private long Now() => (long)((_time.GetTimestamp() - _started) * _nanosecondsPerTick);
}

/// <summary>
/// Who a budget belongs to: the key id or token subject of a caller that has one, otherwise the
/// IP address (null on connections without one, which then share a budget, as before). Compared by
/// value, and built without a string, so looking a client up allocates nothing.
/// </summary>
internal readonly record struct ClientKey(string? CallerId, IPAddress? Address)
{
    public static ClientKey Of(HttpContext context) =>
        Callers.Of(context.User) is { Kind: CallerKind.Key or CallerKind.Token } caller
            ? new(caller.Id, null)
            : new(null, context.Connection.RemoteIpAddress);

    /// <summary>The client as logs name it: the key id or subject (never a key), or <c>ip:</c> and the address.</summary>
    public override string ToString() => CallerId ?? "ip:" + Address;
}
