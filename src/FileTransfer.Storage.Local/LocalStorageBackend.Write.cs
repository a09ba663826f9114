using System.Collections.Concurrent;
using FileTransfer.Core;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Storage.Local;

internal sealed partial class LocalStorageBackend
{
    /// <summary>Prefix of temporary upload files; reserved, so clients can neither list nor name them.</summary>
    public const string TempFilePrefix = FileNames.ReservedPrefix + "upload-";

    // Temporary files of the uploads this process still holds. An idle one is not abandoned: a
    // multipart request keeps its sealed parts until the last part has arrived, however long
    // that takes, so the stale-upload sweeper asks here before it goes by age.
    private readonly ConcurrentDictionary<string, byte> _inProgress = new(StringComparer.Ordinal);

    /// <summary>Opens a hidden temporary file in the target's folder, creating the folders the name needs.</summary>
    public ValueTask<IStagedObject> StageAsync(string name, long? declaredLength, CancellationToken cancellationToken)
    {
        var targetPath = paths.Resolve(name);
        if (Directory.Exists(targetPath))
        {
            throw Failures.IsFolder(name);
        }

        var folder = Path.GetDirectoryName(targetPath)!;
        var created = CreateFolders(folder, name);
        var tempPath = Path.Join(folder, $"{TempFilePrefix}{Guid.NewGuid():N}.tmp");
        try
        {
            // A declared size that cannot fit fails now, not after gigabytes. It reserves nothing: a
            // reservation would let one idle client that declares most of the volume make every
            // other upload fail for as long as it stays open. A disk that fills up while the bytes
            // stream fails that upload alone (ENOSPC), leaving nothing behind.
            if (declaredLength is { } declared && declared > new DriveInfo(folder).AvailableFreeSpace)
            {
                throw Failures.NotEnoughSpace();
            }

            var file = File.OpenHandle(tempPath, FileMode.CreateNew, FileAccess.Write, FileShare.None);
            _inProgress[tempPath] = 0;
            return ValueTask.FromResult<IStagedObject>(new LocalStagedFile(this, name, targetPath, tempPath, file, created));
        }
        catch (IOException ex) when (IsDiskFull(ex))
        {
            Discard(tempPath, created);
            throw Failures.StorageFull(ex);
        }
        catch
        {
            Discard(tempPath, created);
            throw;
        }
    }

    /// <summary>
    /// Commits staged files as one. Each is flushed to disk first; then, holding the locks of all
    /// their names, every precondition is checked before the first rename, so a failed check stores
    /// none of them. Only an I/O error between two renames can leave the earlier ones stored.
    /// </summary>
    public async ValueTask<IReadOnlyList<CommittedObject>> CommitAsync(IReadOnlyList<PendingCommit> commits, CancellationToken cancellationToken)
    {
        var staged = commits.Select(c => (LocalStagedFile)c.Staged).ToArray();
        foreach (var file in staged)
        {
            file.FlushToDisk();
        }

        using (await locks.AcquireAllAsync(staged.Select(s => s.TargetPath), cancellationToken))
        {
            // Checked again here, under the lock: another write may have made the name a folder, or
            // a folder in it a file, since the upload began (a rename over a folder would fail).
            foreach (var file in staged)
            {
                RefuseFolderConflicts(file.Name, file.TargetPath);
            }

            var existing = staged.Select(s => Describe(s.Name, s.TargetPath)).ToArray();
            for (var i = 0; i < commits.Count; i++)
            {
                commits[i].Preconditions.Check(staged[i].Name, existing[i]);
            }

            var results = new CommittedObject[commits.Count];
            for (var i = 0; i < commits.Count; i++)
            {
                results[i] = Rename(staged[i], existing[i], commits[i].Sha256);
            }

            return results;
        }
    }

    /// <summary>Deletes the file of <paramref name="name"/> if the preconditions hold; returns it, or null when there is none.</summary>
    public async ValueTask<StoredObject?> DeleteAsync(string name, Preconditions preconditions, CancellationToken cancellationToken)
    {
        var fullPath = paths.Resolve(name);
        using (await locks.AcquireAsync(fullPath, cancellationToken))
        {
            var existing = Describe(name, fullPath);
            if (existing is null)
            {
                return null;
            }

            preconditions.Check(name, existing);
            File.Delete(fullPath);
            openFiles.Forget(fullPath);
            digests.Forget(name);
            return existing;
        }
    }

    /// <summary>Keeps a digest the core computed, unless the name holds another version by now (its sidecar is that version's).</summary>
    public ValueTask SaveDigestAsync(StoredObject version, byte[] sha256, CancellationToken cancellationToken)
    {
        if (paths.TryResolve(version.Name, out var fullPath, out _) && Describe(version.Name, fullPath) is { } current && current.ETag == version.ETag)
        {
            digests.Save(version.Name, version.Size, version.LastModified.UtcDateTime, sha256);
        }

        return ValueTask.CompletedTask;
    }

    // Under the name's lock, after the preconditions held.
    private CommittedObject Rename(LocalStagedFile staged, StoredObject? existing, byte[] sha256)
    {
        // A strictly later modification time for every version keeps the ETag strong:
        // two uploads of the same size within one clock tick still get different validators.
        var lastWrite = DateTime.UtcNow;
        if (existing is not null && lastWrite.Ticks <= existing.LastModified.UtcTicks)
        {
            lastWrite = new DateTime(existing.LastModified.UtcTicks + 1, DateTimeKind.Utc);
        }

        File.SetLastWriteTimeUtc(staged.TempPath, lastWrite);
        digests.Save(staged.Name, staged.Length, lastWrite, sha256);

        // An upload session's folders are made now, not when it began (no folders for sessions that never complete).
        CreateFolders(Path.GetDirectoryName(staged.TargetPath)!, staged.Name);
        File.Move(staged.TempPath, staged.TargetPath, overwrite: true);
        openFiles.Forget(staged.TargetPath);
        staged.MarkCommitted();
        _inProgress.TryRemove(staged.TempPath, out _);
        return new CommittedObject(Describe(staged.Name, staged.Length, lastWrite) with { Sha256 = sha256 }, existing is not null) { ReplacedSize = existing?.Size ?? 0 };
    }

    /// <summary>Removes what a failed upload left: its temporary file and the folders it created.</summary>
    internal void Discard(string tempPath, IReadOnlyList<string> createdFolders)
    {
        _inProgress.TryRemove(tempPath, out _);
        try
        {
            File.Delete(tempPath);
            foreach (var folder in createdFolders.Reverse())
            {
                if (!Directory.EnumerateFileSystemEntries(folder).Any())
                {
                    Directory.Delete(folder);
                }
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            LogDiscardFailed(logger, tempPath, ex);
        }
    }

    /// <summary>True while an upload of this process owns the temporary file at <paramref name="tempPath"/>.</summary>
    internal bool IsInProgress(string tempPath) => _inProgress.ContainsKey(tempPath);

    internal static bool IsDiskFull(IOException exception) =>
        exception.HResult is 28 /* ENOSPC */ or 122 /* EDQUOT */ or unchecked((int)0x80070070) or unchecked((int)0x80070027)
        || exception.Message.Contains("disk was full", StringComparison.OrdinalIgnoreCase);

    /// <summary>Creates the folders <paramref name="folder"/> needs, returning those it created; refuses a folder in the name that is a file.</summary>
    internal static List<string> CreateFolders(string folder, string name)
    {
        var missing = MissingFolders(folder, name);
        foreach (var path in missing)
        {
            Directory.CreateDirectory(path);
        }

        return missing;
    }

    /// <summary>The folders <paramref name="folder"/> needs that do not exist yet, outermost first; refuses a folder in the name that is a file.</summary>
    internal static List<string> MissingFolders(string folder, string name)
    {
        var missing = new List<string>();
        for (var current = folder; !Directory.Exists(current); current = Path.GetDirectoryName(current)!)
        {
            if (File.Exists(current))
            {
                throw Failures.FolderIsFile(name);
            }

            missing.Add(current);
        }

        missing.Reverse();
        return missing;
    }

    /// <summary>Refuses <paramref name="name"/> when it is a folder, or when a folder in it is a file (<see cref="ErrorReason.NameConflict"/>).</summary>
    internal static void RefuseFolderConflicts(string name, string targetPath)
    {
        if (Directory.Exists(targetPath))
        {
            throw Failures.IsFolder(name);
        }

        MissingFolders(Path.GetDirectoryName(targetPath)!, name);
    }

    [LoggerMessage(EventId = 32, Level = LogLevel.Warning, Message = "Could not remove the temporary upload file {TempPath}")]
    private static partial void LogDiscardFailed(ILogger logger, string tempPath, Exception exception);
}
