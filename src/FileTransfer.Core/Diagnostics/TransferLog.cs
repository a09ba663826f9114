using Microsoft.Extensions.Logging;

namespace FileTransfer.Core;

/// <summary>The per-transfer log line, one definition for both protocols.</summary>
public static partial class TransferLog
{
    public const int CompletedEventId = 100;

    /// <summary>
    /// One structured line per transfer; every placeholder is a field for log queries. Status is the
    /// protocol's own (HTTP status code, gRPC status name); Reason the core's error reason, or empty.
    /// </summary>
    [LoggerMessage(EventId = CompletedEventId, Level = LogLevel.Information,
        Message = "Transfer {Direction} {Name} over {Protocol} ({HttpProtocol}): {Bytes} bytes in {DurationMs} ms, {Outcome} ({Status}{Reason})")]
    private static partial void Log(
        ILogger logger, string direction, string name, string protocol, string httpProtocol, long bytes, long durationMs, string outcome, string status, string reason);

    public static void Completed(ILogger logger, TransferMetrics.Transfer transfer, string name, string httpProtocol, string outcome, string status, ErrorReason? reason)
    {
        // Refused before any work (no key, no scope, a rate limit): counted by the host
        // (filetransfer.requests_refused), never a line each, or a flood of refusals floods the log.
        if (reason is ErrorReason.Unauthenticated or ErrorReason.RateLimited or ErrorReason.PermissionDenied)
        {
            return;
        }

        Log(logger, transfer.Direction, name, transfer.Protocol, httpProtocol, transfer.Bytes, (long)transfer.Elapsed.TotalMilliseconds, outcome, status, reason is { } r ? " " + r.Code() : "");
    }
}
