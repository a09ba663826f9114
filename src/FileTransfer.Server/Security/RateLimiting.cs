using System.Globalization;
using System.Threading.RateLimiting;
using FileTransfer.Core;
using FileTransfer.Server.Protocol;

namespace FileTransfer.Server.Security;

/// <summary>
/// One limiter for the whole API, REST and gRPC alike: a concurrency limit and a token bucket per
/// client (<see cref="ClientRateLimiter"/>), run by <see cref="ClientLimitsMiddleware"/>, which
/// answers a refusal through <see cref="RejectAsync"/>. Health, OpenAPI, Swagger UI and gRPC
/// reflection are never limited: probes and documentation must stay reachable.
/// </summary>
internal static class RateLimiting
{
    /// <summary>429 problem (RFC 6585 4) with the limiter's own wait as Retry-After, in whole seconds.</summary>
    public static async Task RejectAsync(HttpContext context, RateLimitLease lease)
    {
        var seconds = lease.TryGetMetadata(MetadataName.RetryAfter, out var retryAfter)
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

    // The budget's owner, by the same rule (ClientKey), as a log line names it.
    private static string ClientOf(HttpContext context) => ClientKey.Of(context).ToString();
}
