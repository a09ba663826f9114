using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core;

/// <summary>
/// Removes expired upload sessions and their bytes every <see cref="UploadSessionOptions.SweepIntervalSeconds"/>:
/// abandoned uploads cost nothing after <see cref="UploadSessionOptions.ExpirySeconds"/>. A session
/// a writer holds is skipped (its next save moves its expiry); a sweep that fails is logged and
/// tried again at the next tick.
/// </summary>
internal sealed partial class UploadSessionSweeper(UploadSessions sessions, IOptions<UploadSessionOptions> options, TimeProvider time, ILogger<UploadSessionSweeper> logger) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(options.Value.SweepIntervalSeconds), time);
        do
        {
            try
            {
                var removed = await sessions.RemoveExpiredAsync(stoppingToken);
                if (removed > 0)
                {
                    LogSwept(logger, removed);
                }
            }
            catch (Exception ex) when (ex is FileTransferException or IOException or UnauthorizedAccessException)
            {
                LogSweepFailed(logger, ex);
            }
        }
        while (await timer.WaitForNextTickAsync(stoppingToken));
    }

    [LoggerMessage(EventId = 94, Level = LogLevel.Information, Message = "Removed {Count} expired upload sessions")]
    private static partial void LogSwept(ILogger logger, int count);

    [LoggerMessage(EventId = 95, Level = LogLevel.Warning, Message = "The sweep for expired upload sessions failed; trying again at the next interval")]
    private static partial void LogSweepFailed(ILogger logger, Exception exception);
}
