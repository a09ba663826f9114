using System.IO.Enumeration;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Storage.Local;

/// <summary>
/// Removes temporary upload files that a crash or a kill left behind: those untouched for an hour
/// that no upload of this process holds. (A streamed upload writes continually, but a multipart
/// request's sealed parts sit idle until its last part arrives.) An upload session's bytes
/// (<c>.ft-session-ID.part</c>) and lock (<c>.ft-uploads/ID.lock</c>) may sit idle for as long as the
/// session lives: they are removed only once no session record names them (a crash between the
/// two steps of creating or deleting a session); expired sessions are the session sweeper's.
/// </summary>
internal sealed partial class StaleUploadSweeper(LocalRoot root, LocalStorageBackend store, LocalUploadSessionStore sessions, TimeProvider time, ILogger<StaleUploadSweeper> logger) : BackgroundService
{
    private static readonly TimeSpan MaxIdle = TimeSpan.FromHours(1);
    private static readonly EnumerationOptions Recursive = new() { RecurseSubdirectories = true, IgnoreInaccessible = true, AttributesToSkip = FileAttributes.None };

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(MaxIdle, time);
        do
        {
            Sweep(stoppingToken);
        }
        while (await timer.WaitForNextTickAsync(stoppingToken));
    }

    internal int Sweep(CancellationToken cancellationToken = default)
    {
        var removed = 0;
        var cutoff = time.GetUtcNow().UtcDateTime - MaxIdle;
        foreach (var path in TemporaryFiles(cancellationToken))
        {
            try
            {
                if (File.GetLastWriteTimeUtc(path) < cutoff && IsAbandoned(path))
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

    private bool IsAbandoned(string path)
    {
        var name = Path.GetFileName(path);
        return name.StartsWith(LocalStorageBackend.TempFilePrefix, StringComparison.Ordinal) ? !store.IsInProgress(path)
            : name.StartsWith(LocalUploadSessionStore.BytesPrefix, StringComparison.Ordinal) ? !sessions.Exists(name[LocalUploadSessionStore.BytesPrefix.Length..^".part".Length])
            : !sessions.Exists(Path.GetFileNameWithoutExtension(name)); // a session's lock file
    }

    // Every temporary file lies in a real folder of the root's own tree (an upload through a
    // folder link writes where the link points, and links are only followed inside the root), so
    // the walk never follows a folder link: one that loops ("a -> .") would make it endless, and
    // one that leads out of the root would let it delete files that are not ours.
    // A stopping host stops the walk from descending or yielding any further.
    private FileSystemEnumerable<string> TemporaryFiles(CancellationToken cancellationToken) =>
        new(root.FullPath, (ref FileSystemEntry entry) => entry.ToFullPath(), Recursive)
        {
            ShouldIncludePredicate = (ref FileSystemEntry entry) => !cancellationToken.IsCancellationRequested
                && !entry.IsDirectory && IsTemporary(ref entry),
            ShouldRecursePredicate = (ref FileSystemEntry entry) => !cancellationToken.IsCancellationRequested
                && (entry.Attributes & FileAttributes.ReparsePoint) == 0,
        };

    private static bool IsTemporary(ref FileSystemEntry entry) =>
        FileSystemName.MatchesSimpleExpression(LocalStorageBackend.TempFilePrefix + "*.tmp", entry.FileName)
        || FileSystemName.MatchesSimpleExpression(LocalUploadSessionStore.BytesPrefix + "*.part", entry.FileName)
        || (FileSystemName.MatchesSimpleExpression("*.lock", entry.FileName) && entry.Directory.EndsWith(LocalUploadSessionStore.FolderName, StringComparison.Ordinal));

    [LoggerMessage(EventId = 50, Level = LogLevel.Information, Message = "Removed {Count} abandoned temporary upload files")]
    private static partial void LogSwept(ILogger logger, int count);

    [LoggerMessage(EventId = 51, Level = LogLevel.Warning, Message = "Could not remove abandoned upload file {Path}")]
    private static partial void LogSweepFailed(ILogger logger, string path, Exception exception);
}
