namespace FileTransfer.Server.Diagnostics;

internal static partial class Log
{
    // One structured line per transfer; every placeholder is a field for log queries.
    [LoggerMessage(EventId = 100, Level = LogLevel.Information,
        Message = "Transfer {Direction} {Name} over {Protocol} ({HttpProtocol}): {Bytes} bytes in {DurationMs} ms, {Outcome} ({StatusCode})")]
    public static partial void TransferCompleted(
        ILogger logger, string direction, string name, string protocol, string httpProtocol, long bytes, long durationMs, string outcome, int statusCode);
}
