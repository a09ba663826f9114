namespace FileTransfer.Server.Storage;

/// <summary>
/// Removes temporary upload files that a crash or a kill left behind: those untouched for an hour
/// that no upload of this process holds. (A streamed upload writes continually, but a multipart
/// request's sealed parts sit idle until its last part arrives.)
/// </summary>
internal sealed partial class StaleUploadSweeper(StorageRoot root, FileStore store, TimeProvider time, ILogger<StaleUploadSweeper> logger) : BackgroundService
{
    private static readonly TimeSpan MaxIdle = TimeSpan.FromHours(1);
    private static readonly EnumerationOptions Recursive = new() { RecurseSubdirectories = true, IgnoreInaccessible = true, AttributesToSkip = FileAttributes.None };

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(MaxIdle, time);
        do
        {
            Sweep();
        }
        while (await timer.WaitForNextTickAsync(stoppingToken));
    }

    internal int Sweep()
    {
        var removed = 0;
        var cutoff = time.GetUtcNow().UtcDateTime - MaxIdle;
        foreach (var path in Directory.EnumerateFiles(root.FullPath, FileStore.TempFilePrefix + "*.tmp", Recursive))
        {
            try
            {
                if (File.GetLastWriteTimeUtc(path) < cutoff && !store.IsInProgress(path))
                {
                    File.Delete(path);
                    removed++;
                }
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                LogSweepFailed(logger, path, ex);
            }
        }

        if (removed > 0)
        {
            LogSwept(logger, removed);
        }

        return removed;
    }

    [LoggerMessage(EventId = 50, Level = LogLevel.Information, Message = "Removed {Count} abandoned temporary upload files")]
    private static partial void LogSwept(ILogger logger, int count);

    [LoggerMessage(EventId = 51, Level = LogLevel.Warning, Message = "Could not remove abandoned upload file {Path}")]
    private static partial void LogSweepFailed(ILogger logger, string path, Exception exception);
}
