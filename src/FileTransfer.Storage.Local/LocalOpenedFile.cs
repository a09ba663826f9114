using System.Runtime.CompilerServices;
using FileTransfer.Core;
using Microsoft.Win32.SafeHandles;

namespace FileTransfer.Storage.Local;

/// <summary>
/// A stored file opened once for reading and described through the open handle. Both download
/// paths read through it. The handle stays on the version that was opened: a replace is a rename
/// of a new file over the name and a delete unlinks it, and neither changes the bytes, the size or
/// the time behind this handle. The handle is this file's own, or one the <see cref="OpenFileCache"/>
/// shares between reads of the same version.
/// </summary>
internal sealed class LocalOpenedFile : IOpenedObject
{
    private readonly SafeFileHandle _handle;
    private readonly CachedHandle? _shared;
    private int _disposed;

    private LocalOpenedFile(SafeFileHandle handle, StoredObject version, string fullPath, CachedHandle? shared)
    {
        _handle = handle;
        Object = version;
        PhysicalPath = fullPath;
        _shared = shared;
    }

    public StoredObject Object { get; }

    public string? PhysicalPath { get; }

    /// <summary>
    /// Opens <paramref name="fullPath"/> and describes it from the handle; null when there is no such
    /// file (or it is a folder). <paramref name="digest"/> finds the digest kept for that version.
    /// </summary>
    public static LocalOpenedFile? Open(string name, string fullPath, Func<string, long, DateTime, byte[]?> digest)
    {
        var handle = OpenHandle(fullPath);
        if (handle is null)
        {
            return null;
        }

        try
        {
            return Owning(Describe(name, handle, digest), fullPath, handle);
        }
        catch
        {
            handle.Dispose();
            throw;
        }
    }

    /// <summary>A read handle on <paramref name="fullPath"/>; null when there is no such file (or it is a folder).</summary>
    public static SafeFileHandle? OpenHandle(string fullPath)
    {
        try
        {
            // Delete and ReadWrite sharing: an upload may rename over the name, or a delete remove it, while we read.
            return File.OpenHandle(fullPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, FileOptions.Asynchronous | FileOptions.SequentialScan);
        }
        catch (Exception ex) when (ex is FileNotFoundException or DirectoryNotFoundException
                                   || (ex is UnauthorizedAccessException && Directory.Exists(fullPath)))
        {
            return null; // missing, or a folder (which the OS refuses to open as a file)
        }
    }

    /// <summary>The version behind <paramref name="handle"/>: size and time from the handle.</summary>
    public static StoredObject Describe(string name, SafeFileHandle handle, Func<string, long, DateTime, byte[]?> digest) =>
        Version(name, RandomAccess.GetLength(handle), File.GetLastWriteTimeUtc(handle), digest);

    /// <summary>The version of <paramref name="name"/> with this size and time: its ETag, and the digest kept for exactly these.</summary>
    public static StoredObject Version(string name, long length, DateTime lastWriteUtc, Func<string, long, DateTime, byte[]?> digest)
    {
        var modified = new DateTimeOffset(lastWriteUtc);
        return new StoredObject(name, length, modified, LocalETags.For(length, modified), digest(name, length, lastWriteUtc));
    }

    /// <summary>A file read through a handle the cache keeps, which the caller has acquired for it (released when this file is disposed).</summary>
    public static LocalOpenedFile Shared(StoredObject version, string fullPath, CachedHandle shared) =>
        new(shared.Handle, version, fullPath, shared);

    /// <summary>A file that owns <paramref name="handle"/> (opened by the caller, closed with this file).</summary>
    public static LocalOpenedFile Owning(StoredObject version, string fullPath, SafeFileHandle handle) =>
        new(handle, version, fullPath, shared: null);

    public ValueTask<Stream> OpenReadAsync(long offset, long count, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(offset);
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(offset + count, Object.Size, nameof(count));
        return ValueTask.FromResult<Stream>(new RangeStream(this, offset, count));
    }

    public ValueTask DisposeAsync()
    {
        // Once: a cached handle counts this file's reference, which must be given back exactly once.
        if (Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            if (_shared is null)
            {
                _handle.Dispose();
            }
            else
            {
                _shared.Release();
            }
        }

        return ValueTask.CompletedTask;
    }

    /// <summary>
    /// A run of the opened file read with positional reads on the shared handle (no buffering of its
    /// own, no shared file position), so that any number of ranges of one open version can be read at once.
    /// </summary>
    private sealed class RangeStream(LocalOpenedFile file, long offset, long count) : ReadOnlyStream
    {
        /// <summary>The largest read done on the calling thread (Unix): two of the connection memory pool's blocks.</summary>
        private const int SynchronousReadBytes = 64 * 1024;

        private readonly long _end = offset + count;
        private long _position = offset;

        public override int Read(Span<byte> buffer)
        {
            var wanted = Wanted(buffer.Length);
            return wanted == 0 ? 0 : Advance(RandomAccess.Read(file._handle, buffer[..wanted], _position));
        }

        // Unix has no asynchronous file reads: .NET runs a "ReadAsync" as pread(2) on a thread-pool
        // thread, one hop and one wake-up per read, after which every awaiting layer of the request
        // above it completes asynchronously too (an allocation each). A read of a small buffer
        // (a REST download fills the connection's 32 KiB blocks; a small file is one read) is done
        // with pread on this thread, which blocks it exactly as long, without the hop: a small
        // file's GET then completes without a thread switch; so do gRPC's 64 KiB reads. Larger reads
        // (a gRPC chunk size above 64 KiB) and every read on Windows (overlapped I/O) stay asynchronous.
        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            if (OperatingSystem.IsWindows() || buffer.Length > SynchronousReadBytes)
            {
                return ReadOverlappedAsync(buffer, cancellationToken);
            }

            if (cancellationToken.IsCancellationRequested)
            {
                return ValueTask.FromCanceled<int>(cancellationToken);
            }

            try
            {
                return ValueTask.FromResult(Read(buffer.Span));
            }
            catch (Exception ex)
            {
                return ValueTask.FromException<int>(ex);
            }
        }

        // Pooled: a download calls this once per block, and most reads complete asynchronously.
        [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
        private async ValueTask<int> ReadOverlappedAsync(Memory<byte> buffer, CancellationToken cancellationToken)
        {
            var wanted = Wanted(buffer.Length);
            return wanted == 0 ? 0 : Advance(await RandomAccess.ReadAsync(file._handle, buffer[..wanted], _position, cancellationToken));
        }

        private int Wanted(int space) => (int)Math.Min(space, _end - _position);

        // Every write through the server is a new file, so only a file truncated in place behind the
        // server's back ends early: the transfer cannot then be completed honestly.
        private int Advance(int read)
        {
            if (read == 0)
            {
                throw new IOException($"'{file.Object.Name}' ended at byte {_position}, before its size of {file.Object.Size} bytes when it was opened.");
            }

            _position += read;
            return read;
        }
    }
}
