using System.Globalization;
using FileTransfer.Core;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// Which refusals tell the client when to try again, decided by the reason alone, once for both
/// protocols: REST sends the delay as <c>Retry-After</c> in whole seconds (RFC 9110 10.2.3), gRPC as a
/// <c>google.rpc.RetryInfo</c> detail (and, answered from middleware, the <c>grpc-retry-pushback-ms</c>
/// trailer). A reason not listed here means the same request would be refused again: no delay is sent,
/// whatever the refusal carried.
/// </summary>
internal static class RetryAdvice
{
    private static readonly TimeSpan Shortly = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan HookPause = TimeSpan.FromSeconds(5);

    /// <summary>The delay to announce for <paramref name="reason"/>: <paramref name="measured"/> where the refuser knows it, else the reason's own; null for a reason that is not transient.</summary>
    public static TimeSpan? For(ErrorReason reason, TimeSpan? measured = null) => reason switch
    {
        // The limiter knows when a permit frees (its lease metadata); without that, a second.
        ErrorReason.RateLimited => measured ?? Shortly,

        // The store did not answer, or no longer holds the version being read: another try soon
        // usually succeeds (and gets the current version).
        ErrorReason.StorageUnavailable => measured ?? Shortly,

        // Another request is appending to the session; once it ends the client asks for the offset.
        ErrorReason.UploadBusy => measured ?? Shortly,

        // The hook did not answer in time (it may be restarting): not at once, which would wait out
        // its timeout again while it is still down.
        ErrorReason.HookUnavailable => measured ?? HookPause,
        _ => null,
    };

    /// <summary>A delay as <c>Retry-After</c>'s delay-seconds: whole seconds, rounded up, at least 1.</summary>
    public static string Seconds(TimeSpan delay) =>
        Math.Max(1, (long)Math.Ceiling(delay.TotalSeconds)).ToString(CultureInfo.InvariantCulture);
}
