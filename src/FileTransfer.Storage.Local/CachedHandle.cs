using Microsoft.Win32.SafeHandles;

namespace FileTransfer.Storage.Local;

/// <summary>
/// A read handle the <see cref="OpenFileCache"/> keeps open for one version of a file, with what a
/// read needs to describe that version. Counted: the cache holds one reference while the entry is
/// listed, every read it is lent to holds one more, and the last to let go closes the handle, so
/// that an entry dropped while a download still reads through it keeps working until that download ends.
/// </summary>
internal sealed class CachedHandle(SafeFileHandle handle, FileIdentity identity, long length, DateTime lastWriteUtc, long lastUsed)
{
    private int _references = 1;
    private long _lastUsed = lastUsed;

    public SafeFileHandle Handle { get; } = handle;

    /// <summary>What the name was when the handle was opened; a read is lent the handle only while the name is still this.</summary>
    public FileIdentity Identity { get; } = identity;

    public long Length { get; } = length;

    public DateTime LastWriteUtc { get; } = lastWriteUtc;

    /// <summary>When it was last lent (a <see cref="TimeProvider"/> timestamp); read by the idle sweep.</summary>
    public long LastUsed
    {
        get => Volatile.Read(ref _lastUsed);
        set => Volatile.Write(ref _lastUsed, value);
    }

    /// <summary>One more reference, unless the last one is already gone (then the handle is closed or closing).</summary>
    public bool TryAcquire()
    {
        var seen = Volatile.Read(ref _references);
        while (seen > 0)
        {
            var before = Interlocked.CompareExchange(ref _references, seen + 1, seen);
            if (before == seen)
            {
                return true;
            }

            seen = before;
        }

        return false;
    }

    public void Release()
    {
        if (Interlocked.Decrement(ref _references) == 0)
        {
            Handle.Dispose();
        }
    }
}
