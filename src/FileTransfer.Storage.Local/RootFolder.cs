using Microsoft.Win32.SafeHandles;

namespace FileTransfer.Storage.Local;

/// <summary>
/// The canonical root held open (<see cref="FolderDescriptor"/>) for <see cref="LinkFreeWalk"/>, and
/// checked against the root's path at most once a second: an operator who renames or replaces the
/// root folder while the server runs (<c>mv root root.old; mv restored root</c>) must not leave the
/// walk looking in the old folder while opens, writes and listings follow the path to the new one
/// (a link in the new folder would go unseen by the walk and be followed by the open). On a mismatch
/// the path is opened anew. Checking on every request would cost what the descriptor saves.
/// </summary>
internal sealed class RootFolder(string canonicalPath, long checkEveryMilliseconds = 1000) : IDisposable
{

    private readonly Lock _reopening = new();
    private SafeFileHandle? _descriptor = FolderDescriptor.TryOpen(canonicalPath);
    private long _nextCheck = Environment.TickCount64 + checkEveryMilliseconds;
    private bool _disposed;

    /// <summary>The descriptor to look names up from, or null (the caller spells out absolute paths).</summary>
    public SafeFileHandle? Current
    {
        get
        {
            if (Environment.TickCount64 >= Volatile.Read(ref _nextCheck))
            {
                Check();
            }

            return Volatile.Read(ref _descriptor);
        }
    }

    public void Dispose()
    {
        lock (_reopening)
        {
            _disposed = true;
            _descriptor?.Dispose();
        }
    }

    private void Check()
    {
        lock (_reopening)
        {
            if (_disposed || Environment.TickCount64 < _nextCheck)
            {
                return;
            }

            if (_descriptor is not { } held || !FileIdentity.IsSameFolder(canonicalPath, held))
            {
                // A walk under way holds the old descriptor (DangerousAddRef): disposing it here closes
                // it only once that walk is done.
                var old = _descriptor;
                Volatile.Write(ref _descriptor, FolderDescriptor.TryOpen(canonicalPath));
                old?.Dispose();
            }

            Volatile.Write(ref _nextCheck, Environment.TickCount64 + checkEveryMilliseconds);
        }
    }
}
