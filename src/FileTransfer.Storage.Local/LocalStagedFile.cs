using System.Runtime.CompilerServices;
using FileTransfer.Core;
using Microsoft.Win32.SafeHandles;

namespace FileTransfer.Storage.Local;

/// <summary>
/// A write on its way to disk: bytes go to a hidden temporary file in the target's folder (same file
/// system, so the commit is one rename). Disposing an uncommitted one deletes the temporary file and
/// the folders it created: the previous version of the target is never touched until the commit
/// renames over it.
/// </summary>
internal sealed class LocalStagedFile : IStagedObject
{
    private readonly LocalStorageBackend _backend;
    private readonly IReadOnlyList<string> _createdFolders;
    private SafeFileHandle? _file;
    private bool _committed;
    private bool _session;

    internal LocalStagedFile(LocalStorageBackend backend, string name, string targetPath, string tempPath, SafeFileHandle? file, IReadOnlyList<string> createdFolders)
    {
        _backend = backend;
        Name = name;
        TargetPath = targetPath;
        TempPath = tempPath;
        _file = file;
        _createdFolders = createdFolders;
    }

    /// <summary>
    /// A file written elsewhere (an upload session's bytes, in the target's folder or the nearest
    /// one of its parents that exists, so on the same file system), sealed with
    /// <paramref name="length"/> bytes: the commit renames it like any staged file (creating the
    /// folders the name needs), and disposing it uncommitted leaves it to the session.
    /// </summary>
    internal static LocalStagedFile Sealed(LocalStorageBackend backend, string name, string targetPath, string path, long length) =>
        new(backend, name, targetPath, path, file: null, createdFolders: []) { Length = length, _session = true };

    public string Name { get; }

    public long Length { get; private set; }

    /// <summary>Where the commit renames the file to.</summary>
    internal string TargetPath { get; }

    internal string TempPath { get; }

    // Pooled: an upload calls this once per block, and the write completes asynchronously.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask WriteAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        if (_file is null)
        {
            throw new InvalidOperationException("The staged file is sealed: its body has ended.");
        }

        try
        {
            await RandomAccess.WriteAsync(_file, bytes, Length, cancellationToken);
            Length += bytes.Length;
        }
        catch (IOException ex) when (LocalStorageBackend.IsDiskFull(ex))
        {
            throw Failures.StorageFull(ex);
        }
    }

    /// <summary>Closes the temporary file; it stays on disk for the commit (which flushes it) or is deleted on dispose.</summary>
    public ValueTask SealAsync(CancellationToken cancellationToken)
    {
        _file?.Dispose();
        _file = null;
        return ValueTask.CompletedTask;
    }

    /// <summary>
    /// The part of a commit that needs no lock: the bytes flushed to disk, so that the rename never
    /// makes visible a file a crash could leave empty. Reopened (it is sealed by then), flushed and
    /// closed again, so that a commit of many staged files holds one open file at a time.
    /// </summary>
    internal void FlushToDisk()
    {
        using var file = File.OpenHandle(TempPath, FileMode.Open, FileAccess.Write, FileShare.None);
        RandomAccess.FlushToDisk(file);
    }

    internal void MarkCommitted() => _committed = true;

    public ValueTask DisposeAsync()
    {
        _file?.Dispose();
        _file = null;
        if (!_committed && !_session)
        {
            _backend.Discard(TempPath, _createdFolders);
        }

        return ValueTask.CompletedTask;
    }
}
