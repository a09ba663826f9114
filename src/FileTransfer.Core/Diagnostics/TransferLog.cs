using Microsoft.Extensions.Logging;

namespace FileTransfer.Core;

/// <summary>The per-transfer log line, one definition for every protocol.</summary>
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

    public static void Completed(ILogger logger, TransferMetrics.Transfer transfer, string httpProtocol, string outcome, string status, ErrorReason? reason) =>
        Log(logger, transfer.Direction, transfer.Name, transfer.Protocol, httpProtocol, transfer.Bytes, (long)transfer.Elapsed.TotalMilliseconds, outcome, status, reason is { } r ? " " + r.Code() : "");
}
