using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace FileTransfer.Server.Security;

/// <summary>
/// The <c>aspnetcore.rate_limiting.*</c> series, as ASP.NET Core's rate-limiting middleware records
/// them for a global limiter without policies (src/Middleware/RateLimiting/src/RateLimitingMetrics.cs):
/// the framework's meter name, instrument names, units, descriptions, bucket advice and tags, so that
/// <c>/metrics</c> reads as it did behind that middleware. Nothing here queues (the limiter answers at
/// once), so the two queue series, which the framework records only for a wait, never appear.
/// </summary>
internal sealed class RateLimitingSeries
{
    private const string MeterName = "Microsoft.AspNetCore.RateLimiting";
    private const string ResultTag = "aspnetcore.rate_limiting.result";

    // The framework's ShortSecondsBucketBoundaries, the advice it gives this histogram.
    private static readonly IReadOnlyList<double> LeaseSeconds = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
    private static readonly KeyValuePair<string, object?> AcquiredResult = new(ResultTag, "acquired");
    private static readonly KeyValuePair<string, object?> RefusedResult = new(ResultTag, "global_limiter");

    private readonly UpDownCounter<long> _activeLeases;
    private readonly Histogram<double> _leaseDuration;
    private readonly Counter<long> _requests;

    public RateLimitingSeries(IMeterFactory meters)
    {
        var meter = meters.Create(MeterName);
        _activeLeases = meter.CreateUpDownCounter<long>(
            "aspnetcore.rate_limiting.active_request_leases",
            unit: "{request}",
            description: "Number of HTTP requests that are currently active on the server that hold a rate limiting lease.");
        _leaseDuration = meter.CreateHistogram(
            "aspnetcore.rate_limiting.request_lease.duration",
            unit: "s",
            description: "The duration of rate limiting leases held by HTTP requests on the server.",
            tags: null,
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = LeaseSeconds });
        _requests = meter.CreateCounter<long>(
            "aspnetcore.rate_limiting.requests",
            unit: "{request}",
            description: "Number of requests that tried to acquire a rate limiting lease. Requests could be rejected by global or endpoint rate limiting policies. Or the request could be canceled while waiting for the lease.");
    }

    /// <summary>A lease was taken; the timestamp to end it with.</summary>
    public long Started()
    {
        if (_activeLeases.Enabled)
        {
            _activeLeases.Add(1);
        }

        return Stopwatch.GetTimestamp();
    }

    /// <summary>The request that held the lease since <paramref name="startedAt"/> has left.</summary>
    public void Ended(long startedAt)
    {
        if (_activeLeases.Enabled)
        {
            _activeLeases.Add(-1);
        }

        if (_leaseDuration.Enabled)
        {
            _leaseDuration.Record(Stopwatch.GetElapsedTime(startedAt).TotalSeconds);
        }

        if (_requests.Enabled)
        {
            _requests.Add(1, AcquiredResult);
        }
    }

    /// <summary>The limiter refused the request.</summary>
    public void Refused()
    {
        if (_requests.Enabled)
        {
            _requests.Add(1, RefusedResult);
        }
    }
}
