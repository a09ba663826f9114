using System.Collections.Concurrent;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Storage;

/// <summary>
/// Writes and deletes files for both protocols: size limits, preconditions, digests and the
/// atomic commit live here and nowhere else.
/// </summary>
internal sealed partial class FileStore(
    IOptions<StorageOptions> options,
    FileCatalog catalog,
    DigestStore digests,
    NameLocks locks,
    ILogger<FileStore> logger)
{
    /// <summary>Prefix of temporary upload files; reserved, so clients can neither list nor name them.</summary>
    public const string TempFilePrefix = StoragePathResolver.ReservedPrefix + "upload-";

    // Temporary files of the uploads this process still holds. An idle one is not abandoned: a
    // multipart request keeps its sealed parts until the last part has arrived, however long
    // that takes, so the stale-upload sweeper asks here before it goes by age.
    private readonly ConcurrentDictionary<string, byte> _inProgress = new(StringComparer.Ordinal);

    /// <summary>Checks what can be checked before any byte arrives and opens the temporary file.</summary>
    public UploadSession BeginUpload(UploadRequest request)
    {
        var maxBytes = Math.Min(options.Value.MaxFileSizeBytes, request.MaxBytes ?? long.MaxValue);
        if (request.DeclaredLength > maxBytes)
        {
            throw new UploadException(UploadError.TooLarge, $"The file is {request.DeclaredLength} bytes; the limit is {maxBytes} bytes.");
        }

        var target = request.Target;
        request.Preconditions.Check(target.Name, catalog.Find(target));
        if (Directory.Exists(target.FullPath))
        {
            throw new UploadException(UploadError.NameConflict, $"'{target.Name}' is a folder.");
        }

        var folder = Path.GetDirectoryName(target.FullPath)!;
        var created = CreateFolders(folder, target.Name);
        var tempPath = Path.Join(folder, $"{TempFilePrefix}{Guid.NewGuid():N}.tmp");
        try
        {
            if (request.DeclaredLength is { } declared && declared > new DriveInfo(folder).AvailableFreeSpace)
            {
                throw new UploadException(UploadError.DiskFull, "There is not enough free space to store the file.");
            }

            // Reserving the declared size up front makes a full disk fail now, not after gigabytes.
            var file = File.OpenHandle(tempPath, FileMode.CreateNew, FileAccess.Write, FileShare.None, FileOptions.None, request.DeclaredLength ?? 0);
            _inProgress[tempPath] = 0;
            return new UploadSession(this, request, maxBytes, tempPath, file, created);
        }
        catch (IOException ex) when (IsDiskFull(ex))
        {
            Discard(tempPath, created);
            throw DiskFull(ex);
        }
        catch
        {
            Discard(tempPath, created);
            throw;
        }
    }

    /// <summary>Deletes the file at <paramref name="path"/>; false when there is none.</summary>
    public async Task<bool> DeleteAsync(StoragePath path, Preconditions preconditions, CancellationToken cancellationToken)
    {
        using (await locks.AcquireAsync(path.FullPath, cancellationToken))
        {
            var existing = catalog.Find(path);
            if (existing is null)
            {
                return false;
            }

            preconditions.Check(path.Name, existing);
            File.Delete(path.FullPath);
            digests.Forget(path.Name);
            LogDeleted(logger, path.Name);
            return true;
        }
    }

    /// <summary>
    /// Commits staged uploads as one. Each is verified and flushed to disk first; then, holding
    /// the locks of all their names, every precondition is checked before the first rename, so a
    /// failed check (or a verification error) stores none of them. Only an I/O error between two
    /// renames can leave the earlier ones stored.
    /// </summary>
    internal async Task<IReadOnlyList<UploadResult>> CommitAsync(IReadOnlyList<UploadSession> sessions, CancellationToken cancellationToken)
    {
        if (sessions.Select(s => s.Target.FullPath).Distinct(StringComparer.Ordinal).Count() != sessions.Count)
        {
            // Checked against the disk before any rename, a name's second version would pass a
            // precondition that its first version breaks.
            throw new ArgumentException("Each name may be committed once per call.", nameof(sessions));
        }

        var sha256 = new byte[sessions.Count][];
        for (var i = 0; i < sessions.Count; i++)
        {
            sha256[i] = await sessions[i].PrepareCommitAsync(cancellationToken);
        }

        using (await locks.AcquireAllAsync(sessions.Select(s => s.Target.FullPath), cancellationToken))
        {
            var existing = sessions.Select(s => catalog.Find(s.Target)).ToArray();
            for (var i = 0; i < sessions.Count; i++)
            {
                sessions[i].Request.Preconditions.Check(sessions[i].Target.Name, existing[i]);
            }

            var results = new UploadResult[sessions.Count];
            for (var i = 0; i < sessions.Count; i++)
            {
                results[i] = Rename(sessions[i], existing[i], sha256[i]);
            }

            return results;
        }
    }

    // Under the name's lock, after the preconditions held.
    private UploadResult Rename(UploadSession session, StoredFile? existing, byte[] sha256)
    {
        var target = session.Target;

        // A strictly later modification time for every version keeps the ETag strong:
        // two uploads of the same size within one clock tick still get different validators.
        var lastWrite = DateTime.UtcNow;
        if (existing is not null && lastWrite.Ticks <= existing.LastModified.UtcTicks)
        {
            lastWrite = new DateTime(existing.LastModified.UtcTicks + 1, DateTimeKind.Utc);
        }

        File.SetLastWriteTimeUtc(session.TempPath, lastWrite);
        digests.Save(target.Name, session.Length, lastWrite, sha256);
        File.Move(session.TempPath, target.FullPath, overwrite: true);
        session.MarkCommitted();
        _inProgress.TryRemove(session.TempPath, out _);

        var stored = catalog.Describe(target.Name, target.FullPath, session.Length, new DateTimeOffset(lastWrite));
        LogCommitted(logger, target.Name, session.Length, existing is not null);
        return new UploadResult(stored, sha256, existing is not null);
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

    internal static UploadException DiskFull(IOException exception) =>
        new(UploadError.DiskFull, "The storage volume is full; nothing was stored.", exception);

    private static List<string> CreateFolders(string folder, string name)
    {
        var missing = new List<string>();
        for (var current = folder; !Directory.Exists(current); current = Path.GetDirectoryName(current)!)
        {
            if (File.Exists(current))
            {
                throw new UploadException(UploadError.NameConflict, $"A folder in '{name}' is a file.");
            }

            missing.Add(current);
        }

        missing.Reverse();
        foreach (var path in missing)
        {
            Directory.CreateDirectory(path);
        }

        return missing;
    }

    [LoggerMessage(EventId = 30, Level = LogLevel.Information, Message = "Stored {Name} ({Size} bytes, replaced: {Replaced})")]
    private static partial void LogCommitted(ILogger logger, string name, long size, bool replaced);

    [LoggerMessage(EventId = 31, Level = LogLevel.Information, Message = "Deleted {Name}")]
    private static partial void LogDeleted(ILogger logger, string name);

    [LoggerMessage(EventId = 32, Level = LogLevel.Warning, Message = "Could not remove the temporary upload file {TempPath}")]
    private static partial void LogDiscardFailed(ILogger logger, string tempPath, Exception exception);
}
