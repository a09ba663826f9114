using System.Globalization;
using System.Threading.RateLimiting;
using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Microsoft.AspNetCore.RateLimiting;

namespace FileTransfer.Server.Security;

/// <summary>
/// One limiter for the whole API, REST and gRPC alike: a concurrency limit and a token bucket per
/// client. Health, OpenAPI, Swagger UI and gRPC reflection are never limited: probes and
/// documentation must stay reachable.
/// </summary>
internal static class RateLimiting
{
    public static PartitionedRateLimiter<HttpContext> Create(RateLimitOptions options)
    {
        // The factories are built once: RateLimitPartition.GetConcurrencyLimiter and its kin wrap
        // the options factory in a new closure and delegate on every call, that is on every request,
        // although the limiter is created only for a client's first one.
        Func<string, RateLimiter> concurrency = _ => new ConcurrencyLimiter(new ConcurrencyLimiterOptions
        {
            PermitLimit = options.ConcurrentTransfers,
            QueueLimit = 0,
        });
        Func<string, RateLimiter> tokenBucket = _ => new TokenBucketRateLimiter(new TokenBucketRateLimiterOptions
        {
            TokenLimit = options.Burst,
            TokensPerPeriod = options.PermitsPerSecond,
            ReplenishmentPeriod = TimeSpan.FromSeconds(1),
            QueueLimit = 0,
            AutoReplenishment = true,
        });
        var unlimited = RateLimitPartition.GetNoLimiter("");
        return PartitionedRateLimiter.CreateChained(
            PartitionedRateLimiter.Create<HttpContext, string>(context =>
                PartitionOf(context, options) is { } client ? RateLimitPartition.Get(client, concurrency) : unlimited),
            PartitionedRateLimiter.Create<HttpContext, string>(context =>
                PartitionOf(context, options) is { } client ? RateLimitPartition.Get(client, tokenBucket) : unlimited));
    }

    /// <summary>429 problem (RFC 6585 4) with the limiter's own wait as Retry-After, in whole seconds.</summary>
    public static async ValueTask OnRejectedAsync(OnRejectedContext rejected, CancellationToken cancellationToken)
    {
        var context = rejected.HttpContext;
        var seconds = rejected.Lease.TryGetMetadata(MetadataName.RetryAfter, out var retryAfter)
            ? Math.Max(1, (int)Math.Ceiling(retryAfter.TotalSeconds))
            : 1;
        Log.RateLimited(context.RequestServices.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(RateLimiting)), ClientOf(context));
        await SecurityProblems.WriteAsync(
            context,
            ErrorReason.RateLimited,
            $"This client has too many requests running or started too many per second. Retry after {seconds.ToString(CultureInfo.InvariantCulture)} s.",
            TimeSpan.FromSeconds(seconds));
    }

    /// <summary>
    /// Whether requests to <paramref name="path"/> are limited (also what the OpenAPI document
    /// declares 429 for). The REST API and the gRPC FileService share one budget per client;
    /// gRPC reflection and health stay free, like /healthz.
    /// </summary>
    public static bool Covers(PathString path) => path.StartsWithSegments("/api") || path.StartsWithSegments(Routes.FileService);

    // null: not limited.
    private static string? PartitionOf(HttpContext context, RateLimitOptions options) =>
        options.Enabled && Covers(context.Request.Path) ? ClientOf(context) : null;

    // The key id (a hash prefix, never the key itself) or a token's subject names a client that has one.
    private static string ClientOf(HttpContext context) =>
        Callers.Of(context.User) is { Kind: CallerKind.Key or CallerKind.Token } caller
            ? caller.Id
            : "ip:" + context.Connection.RemoteIpAddress;
}
