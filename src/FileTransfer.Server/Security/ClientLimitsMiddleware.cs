using System.Threading.RateLimiting;

namespace FileTransfer.Server.Security;

/// <summary>
/// Runs every request through <see cref="ClientRateLimiter"/>: a refused one is answered with 429
/// (<see cref="RateLimiting.RejectAsync"/>), a started one holds its lease until it leaves.
/// </summary>
/// <remarks>
/// It replaces ASP.NET Core's rate-limiting middleware, which did the same around the same limiter
/// and, per request, also looked two attributes up in the endpoint's metadata (no endpoint has them),
/// asked an endpoint limiter built from no policies (a partition look-up under a lock), combined the
/// two leases and kept an async state machine: about half of its 2.7 % of a 1 KiB GET's CPU
/// (docs/performance-notes.md). The <c>aspnetcore.rate_limiting.*</c> series stay as they were
/// (<see cref="RateLimitingSeries"/>), and so do the order (after authentication, which names the
/// client, before authorization) and the answers.
/// </remarks>
internal sealed class ClientLimitsMiddleware(RequestDelegate next, ClientRateLimiter limiter, RateLimitingSeries series)
{
    public Task InvokeAsync(HttpContext context)
    {
        var lease = limiter.AttemptAcquire(context);
        return lease.IsAcquired ? RunAsync(context, lease) : RefuseAsync(context, lease);
    }

    private async Task RunAsync(HttpContext context, RateLimitLease lease)
    {
        var startedAt = series.Started();
        try
        {
            await next(context);
        }
        finally
        {
            series.Ended(startedAt);
            lease.Dispose();
        }
    }

    private async Task RefuseAsync(HttpContext context, RateLimitLease lease)
    {
        using (lease)
        {
            series.Refused();
            await RateLimiting.RejectAsync(context, lease);
        }
    }
}
