using FileTransfer.Core;
using Microsoft.Win32.SafeHandles;

namespace FileTransfer.Storage.Local;

/// <summary>
/// The lock on one session's <c>.lock</c> file and the session's bytes file, positional writes after
/// the saved offset. A save truncates the file to the new offset, flushes it to disk, and only then
/// replaces the record: the offset on disk is never ahead of the bytes on disk, and bytes a failed or
/// refused request left past it are dropped.
/// </summary>
internal sealed class LocalSessionLease : IUploadSessionLease
{
    private readonly LocalUploadSessionStore _store;
    private readonly SafeFileHandle _lock;
    private LocalSessionRecord _record;
    private SafeFileHandle? _bytes;
    private long _position;
    private bool _deleted;

    public LocalSessionLease(LocalUploadSessionStore store, LocalSessionRecord record, SafeFileHandle lockFile)
    {
        _store = store;
        _record = record;
        _lock = lockFile;
        _position = record.Offset;
        Session = record.ToSession();
    }

    public UploadSession Session { get; private set; }

    private string BytesPath => _store.FullPath(_record.BytesPath);

    private string[] CreatedFolders => [.. _record.CreatedFolders.Select(_store.FullPath)];

    public async ValueTask WriteAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        try
        {
            await RandomAccess.WriteAsync(OpenBytes(), bytes, _position, cancellationToken);
            _position += bytes.Length;
        }
        catch (IOException ex) when (LocalStorageBackend.IsDiskFull(ex))
        {
            throw Failures.StorageFull(ex);
        }
    }

    public ValueTask<UploadSession> SaveAsync(UploadSession session, CancellationToken cancellationToken)
    {
        if (session.Completed is null)
        {
            var bytes = OpenBytes();
            RandomAccess.SetLength(bytes, session.Offset);
            RandomAccess.FlushToDisk(bytes);
            _position = session.Offset;
        }

        var record = new LocalSessionRecord(session, _record.BytesPath, _record.CreatedFolders);
        record.Write(_store.RecordPath(session.Id));
        _record = record;
        Session = record.ToSession();
        return ValueTask.FromResult(Session);
    }

    public ValueTask<IStagedObject> HandOverAsync(CancellationToken cancellationToken)
    {
        var bytes = OpenBytes();
        RandomAccess.SetLength(bytes, _record.Offset);
        CloseBytes();
        var staged = LocalStagedFile.Sealed(
            _store.Backend,
            _record.Name,
            _store.TargetPath(_record.Name),
            BytesPath,
            _record.Offset);
        return ValueTask.FromResult<IStagedObject>(staged);
    }

    public ValueTask DeleteAsync(CancellationToken cancellationToken)
    {
        CloseBytes();

        // The bytes and the folders the session made first, the record last: a crash in between
        // leaves a record whose bytes are gone, which the next writer finds out, rather than bytes
        // that no record names.
        _store.Backend.Discard(BytesPath, CreatedFolders);
        LocalUploadSessionStore.TryDelete(_store.RecordPath(_record.Id));
        _deleted = true;
        return ValueTask.CompletedTask;
    }

    public ValueTask DisposeAsync()
    {
        try
        {
            if (!_deleted && _bytes is not null && _position != _record.Offset && Session.Completed is null)
            {
                // Written but never saved (a refused checksum, a failed save): not part of the session.
                RandomAccess.SetLength(_bytes, _record.Offset);
            }
        }
        catch (IOException)
        {
            // The next save truncates it.
        }
        finally
        {
            CloseBytes();
            if (_deleted)
            {
                // Still locked: nobody else can be using the lock file of a session that is gone.
                LocalUploadSessionStore.TryDelete(_store.LockPath(_record.Id));
            }

            _lock.Dispose();
        }

        return ValueTask.CompletedTask;
    }

    private SafeFileHandle OpenBytes()
    {
        if (_bytes is null)
        {
            try
            {
                _bytes = File.OpenHandle(BytesPath, FileMode.Open, FileAccess.ReadWrite, FileShare.None, FileOptions.Asynchronous);
            }
            catch (Exception ex) when (ex is FileNotFoundException or DirectoryNotFoundException)
            {
                // "If the server loses any part of the state, it MUST deactivate the upload resource"
                // (draft-ietf-httpbis-resumable-upload, Offset): the record goes too.
                LocalUploadSessionStore.TryDelete(_store.RecordPath(_record.Id));
                _deleted = true;
                throw new FileTransferException(ErrorReason.UploadNotFound, "The bytes of this upload are gone (removed outside the server); start a new upload.", ex);
            }
        }

        return _bytes;
    }

    private void CloseBytes()
    {
        _bytes?.Dispose();
        _bytes = null;
    }
}
