using System.Runtime.CompilerServices;
using FileTransfer.Core;
using Microsoft.Win32.SafeHandles;

namespace FileTransfer.Storage.Local;

/// <summary>
/// Upload sessions on the local disk. The record of session <c>ID</c> is <c>.ft-uploads/ID.json</c>
/// (<see cref="LocalSessionRecord"/>); its bytes are a hidden file, <c>.ft-session-ID.part</c>, in the
/// folder of the name it will be committed as (or, while that folder does not exist, the nearest of
/// its parents that does: folders are made at the commit), so that the commit is the same rename as
/// every other upload's, on the same file system (a folder that is another mount included), and a
/// full volume refuses the append that does not fit. One writer: <c>.ft-uploads/ID.lock</c>, held with an OS file
/// lock (flock on Linux, a sharing mode on Windows) by the lease, so that it holds across every
/// process that shares the root and goes away with a process that dies. The stale-upload sweeper
/// leaves these names alone (they are not <c>.ft-upload-*.tmp</c>).
/// </summary>
internal sealed class LocalUploadSessionStore(LocalRoot root, LocalPaths paths, LocalStorageBackend backend) : IUploadSessionStore
{
    /// <summary>The folder of the records and locks, below the root.</summary>
    public const string FolderName = FileNames.ReservedPrefix + "uploads";

    /// <summary>Prefix of the bytes files, in the target's folder.</summary>
    public const string BytesPrefix = FileNames.ReservedPrefix + "session-";

    private readonly string _folder = Path.Join(root.FullPath, FolderName);

    public ValueTask CreateAsync(UploadSession session, CancellationToken cancellationToken)
    {
        var targetPath = paths.Resolve(session.Name);
        LocalStorageBackend.RefuseFolderConflicts(session.Name, targetPath);

        // No folder is made for a session (the commit makes them): its bytes wait in the nearest
        // folder of the name that exists, which is on the file system the folders will be on.
        var folder = Path.GetDirectoryName(targetPath)!;
        var missing = LocalStorageBackend.MissingFolders(folder, session.Name);
        folder = missing.Count > 0 ? Path.GetDirectoryName(missing[0])! : folder;
        var bytesPath = Path.Join(folder, $"{BytesPrefix}{session.Id}.part");
        try
        {
            // As for a streamed upload: a declared size that cannot fit fails now; nothing is reserved.
            if (session.Length is { } declared && declared > new DriveInfo(folder).AvailableFreeSpace)
            {
                throw Failures.NotEnoughSpace();
            }

            File.OpenHandle(bytesPath, FileMode.CreateNew, FileAccess.Write, FileShare.None).Dispose();
            Directory.CreateDirectory(_folder);
            new LocalSessionRecord(session, Relative(bytesPath), []).Write(RecordPath(session.Id));
            return ValueTask.CompletedTask;
        }
        catch (IOException ex) when (LocalStorageBackend.IsDiskFull(ex))
        {
            backend.Discard(bytesPath, []);
            throw Failures.StorageFull(ex);
        }
        catch
        {
            backend.Discard(bytesPath, []);
            throw;
        }
    }

    public ValueTask<UploadSession?> GetAsync(string id, CancellationToken cancellationToken) =>
        ValueTask.FromResult(LocalSessionRecord.Read(RecordPath(id))?.ToSession());

    public ValueTask<IUploadSessionLease?> TryAcquireAsync(string id, CancellationToken cancellationToken)
    {
        var recordPath = RecordPath(id);
        if (!File.Exists(recordPath))
        {
            throw Failures.UploadNotFound();
        }

        // Never waits: a second writer is refused, not queued behind one that may hang for minutes.
        SafeFileHandle lockFile;
        try
        {
            lockFile = File.OpenHandle(LockPath(id), FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
        }
        catch (IOException ex) when (IsHeldElsewhere(ex))
        {
            return ValueTask.FromResult<IUploadSessionLease?>(null);
        }

        // Read under the lock: the record a writer saved last, which nobody changes while we hold it.
        if (LocalSessionRecord.Read(recordPath) is not { } record)
        {
            TryDelete(LockPath(id));
            lockFile.Dispose();
            throw Failures.UploadNotFound();
        }

        return ValueTask.FromResult<IUploadSessionLease?>(new LocalSessionLease(this, record, lockFile));
    }

    public async IAsyncEnumerable<UploadSession> ListAsync([EnumeratorCancellation] CancellationToken cancellationToken)
    {
        if (!Directory.Exists(_folder))
        {
            yield break;
        }

        foreach (var path in Directory.EnumerateFiles(_folder, "*.json"))
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (LocalSessionRecord.Read(path) is { } record)
            {
                yield return record.ToSession();
            }
        }

        await Task.CompletedTask;
    }

    /// <summary>True when a session of this id has a record (the stale-upload sweeper asks before it removes bytes without one).</summary>
    internal bool Exists(string id) => File.Exists(RecordPath(id));

    internal LocalStorageBackend Backend => backend;

    internal string RecordPath(string id) => Path.Join(_folder, id + ".json");

    internal string LockPath(string id) => Path.Join(_folder, id + ".lock");

    internal string FullPath(string relative) => Path.Join(root.FullPath, relative);

    internal string TargetPath(string name) => paths.Resolve(name);

    internal static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Left behind: the stale-upload sweeper removes what no session record names.
        }
    }

    // flock's EWOULDBLOCK on Linux and macOS; ERROR_SHARING_VIOLATION / ERROR_LOCK_VIOLATION on Windows.
    private static bool IsHeldElsewhere(IOException exception) =>
        exception.HResult is 11 or 35 or unchecked((int)0x80070020) or unchecked((int)0x80070021);

    private string Relative(string path) => Path.GetRelativePath(root.FullPath, path);
}
