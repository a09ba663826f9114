using System.Collections.Concurrent;
using Microsoft.Extensions.Options;

namespace FileTransfer.Storage.Local;

/// <summary>
/// Read handles of recently downloaded files, kept open so that reading the same version again
/// costs one statx(2) of the name (the resolver's own, when it probed the name on its way) instead
/// of open, three fstat, two flock, fadvise and close (a small GET's storage work;
/// docs/performance-notes.md). A handle is lent only while the name still is the
/// file it was opened on: same device and inode, size, modification and change time to the
/// nanosecond (<see cref="FileIdentity"/>). Every write of ours renames a new inode over the name,
/// and a write in place by another program moves the change time, so a lent handle reads what a
/// fresh open at the moment of the check would, and is described as that version.
/// Only files up to <see cref="LargestKeptBytes"/> are kept, at most
/// <see cref="LocalStorageOptions.OpenFiles"/> of them, each closed by the sweep (every half
/// <see cref="Idle"/>) once it has been unused for <see cref="Idle"/>, and at once when this
/// server replaces or deletes the name. Linux only; elsewhere every read opens its own handle.
/// </summary>
internal sealed class OpenFileCache : IDisposable
{
    /// <summary>How long an unused handle stays open.</summary>
    public static readonly TimeSpan Idle = TimeSpan.FromSeconds(10);

    /// <summary>
    /// The largest file kept open. The open is a large share of a small file's request and a negligible
    /// one of a large file's, whose handle, kept, would also hold its disk space after another program
    /// deletes it, for up to <see cref="Idle"/>.
    /// </summary>
    public const long LargestKeptBytes = 1024 * 1024;

    private readonly ConcurrentDictionary<string, CachedHandle> _entries = new(StringComparer.Ordinal);
    private readonly TimeProvider _time;
    private readonly int _capacity;
    private readonly ITimer? _sweep;
    private int _count;

    public OpenFileCache(IOptions<LocalStorageOptions> options, TimeProvider time)
    {
        _time = time;
        _capacity = OperatingSystem.IsLinux() ? options.Value.OpenFiles : 0;
        if (_capacity > 0)
        {
            _sweep = time.CreateTimer(_ => CloseIdle(), null, Idle / 2, Idle / 2);
        }
    }

    /// <summary>Handles open now (for tests and diagnostics).</summary>
    public int Count => Volatile.Read(ref _count);

    /// <summary>
    /// The file <paramref name="fullPath"/> names now, opened for reading; null when there is none (or it
    /// is a folder). <paramref name="probed"/> is which file the name was when it was resolved a moment
    /// ago (<see cref="LocalPaths.Resolve(string, out FileIdentity?)"/>), checked instead of asking again; null: asked here.
    /// </summary>
    public LocalOpenedFile? Open(string name, string fullPath, Func<string, long, DateTime, byte[]?> digest, FileIdentity? probed = null)
    {
        if (_capacity == 0)
        {
            return LocalOpenedFile.Open(name, fullPath, digest);
        }

        if (!TryIdentify(fullPath, probed, out var current) || current.Size > LargestKeptBytes)
        {
            // Not a regular file now (missing, a folder, a device) or large: the plain open answers as it always did.
            Forget(fullPath);
            return LocalOpenedFile.Open(name, fullPath, digest);
        }

        if (_entries.TryGetValue(fullPath, out var cached))
        {
            if (cached.Identity == current && cached.TryAcquire())
            {
                cached.LastUsed = _time.GetTimestamp();
                return LocalOpenedFile.Shared(LocalOpenedFile.Version(name, cached.Length, cached.LastWriteUtc, digest), fullPath, cached);
            }

            Remove(new(fullPath, cached));
        }

        return OpenAndKeep(name, fullPath, current, digest);
    }

    /// <summary>Closes the handle kept for <paramref name="fullPath"/>, if any: this server has just replaced or deleted the file.</summary>
    public void Forget(string fullPath)
    {
        if (_entries.TryRemove(fullPath, out var cached))
        {
            Closed(cached);
        }
    }

    public void Dispose()
    {
        _sweep?.Dispose();
        foreach (var path in _entries.Keys)
        {
            Forget(path);
        }
    }

    // The resolver's probe when there was one: the same statx of the same name, a moment earlier.
    private static bool TryIdentify(string fullPath, FileIdentity? probed, out FileIdentity current)
    {
        current = probed.GetValueOrDefault();
        return probed is not null || FileIdentity.TryOf(fullPath, out current);
    }

    private LocalOpenedFile? OpenAndKeep(string name, string fullPath, FileIdentity current, Func<string, long, DateTime, byte[]?> digest)
    {
        var handle = LocalOpenedFile.OpenHandle(fullPath);
        if (handle is null)
        {
            return null;
        }

        try
        {
            var version = LocalOpenedFile.Describe(name, handle, digest);

            // Kept only if the handle holds what the name named at the check (a replace can land between
            // the two) and there is room; otherwise this read owns the handle, as without the cache.
            var keep = FileIdentity.TryOf(handle, out var opened) && opened == current;
            if (keep && Interlocked.Increment(ref _count) > _capacity)
            {
                Interlocked.Decrement(ref _count);
                keep = false;
            }

            if (keep)
            {
                var cached = new CachedHandle(handle, opened, version.Size, version.LastModified.UtcDateTime, _time.GetTimestamp());
                cached.TryAcquire();
                if (!_entries.TryAdd(fullPath, cached))
                {
                    // Another read kept this name first: this one reads through its handle alone.
                    Interlocked.Decrement(ref _count);
                    cached.Release();
                }

                return LocalOpenedFile.Shared(version, fullPath, cached);
            }

            return LocalOpenedFile.Owning(version, fullPath, handle);
        }
        catch
        {
            handle.Dispose();
            throw;
        }
    }

    // Only this very entry: another read may have kept a newer handle under the name meanwhile.
    private void Remove(KeyValuePair<string, CachedHandle> entry)
    {
        if (_entries.TryRemove(entry))
        {
            Closed(entry.Value);
        }
    }

    private void Closed(CachedHandle cached)
    {
        Interlocked.Decrement(ref _count);
        cached.Release();
    }

    private void CloseIdle()
    {
        foreach (var entry in _entries)
        {
            if (_time.GetElapsedTime(entry.Value.LastUsed) >= Idle)
            {
                Remove(entry);
            }
        }
    }
}
