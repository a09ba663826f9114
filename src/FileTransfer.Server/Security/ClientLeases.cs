using System.Threading.RateLimiting;

namespace FileTransfer.Server.Security;

/// <summary>The leases <see cref="ClientRateLimiter"/> hands out.</summary>
internal static class ClientLeases
{
    /// <summary>For a request no limit applies to: one instance, nothing to give back.</summary>
    public static readonly RateLimitLease Unlimited = new Answer(acquired: true, retryAfter: null);

    /// <summary>
    /// Refused at the concurrency limit. No Retry-After of its own (a running transfer may end any
    /// moment), as the framework's ConcurrencyLimiter gave none: the 429 says 1 s.
    /// </summary>
    public static readonly RateLimitLease TooManyRunning = new Answer(acquired: false, retryAfter: null);

    /// <summary>Refused for want of a token, with the wait until the next one (<see cref="MetadataName.RetryAfter"/>).</summary>
    public static RateLimitLease TooFast(TimeSpan retryAfter) => new Answer(acquired: false, retryAfter);

    /// <summary>A request started on <paramref name="budget"/>: its slot is given back once, however often the lease is disposed.</summary>
    public static RateLimitLease Running(ClientBudget budget) => new RunningLease(budget);

    private sealed class RunningLease(ClientBudget budget) : RateLimitLease
    {
        private ClientBudget? _budget = budget;

        public override bool IsAcquired => true;

        public override IEnumerable<string> MetadataNames => [];

        public override bool TryGetMetadata(string metadataName, out object? metadata)
        {
            metadata = null;
            return false;
        }

        protected override void Dispose(bool disposing) => Interlocked.Exchange(ref _budget, null)?.End();
    }

    private sealed class Answer(bool acquired, TimeSpan? retryAfter) : RateLimitLease
    {
        public override bool IsAcquired => acquired;

        public override IEnumerable<string> MetadataNames => retryAfter is null ? [] : [MetadataName.RetryAfter.Name];

        public override bool TryGetMetadata(string metadataName, out object? metadata)
        {
            metadata = retryAfter is { } wait && metadataName == MetadataName.RetryAfter.Name ? wait : null;
            return metadata is not null;
        }
    }
}
