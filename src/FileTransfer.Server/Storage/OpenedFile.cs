using System.Runtime.CompilerServices;
using Microsoft.Win32.SafeHandles;

namespace FileTransfer.Server.Storage;

/// <summary>
/// A stored file opened once for reading and measured through the open handle. Both download
/// paths read through it: the REST send-file copy and gRPC DownloadFile. The handle stays on the
/// version that was opened, so a replace during the transfer (a rename over the name) changes
/// neither the bytes being sent nor the size and time that describe them.
/// </summary>
internal sealed class OpenedFile : IDisposable
{
    private readonly SafeFileHandle _handle;
    private readonly string _name;

    private OpenedFile(SafeFileHandle handle, string name)
    {
        _handle = handle;
        _name = name;
        Length = RandomAccess.GetLength(handle);
        LastWriteTimeUtc = File.GetLastWriteTimeUtc(handle);
    }

    /// <summary>Size of the opened version in bytes.</summary>
    public long Length { get; }

    /// <summary>Modification time of the opened version.</summary>
    public DateTime LastWriteTimeUtc { get; }

    /// <summary>Opens <paramref name="fullPath"/>; <paramref name="name"/> is what error messages call it (never a server path).</summary>
    public static OpenedFile Open(string fullPath, string name)
    {
        // Delete and ReadWrite sharing: an upload may rename over the name, or a delete remove it, while we read.
        var handle = File.OpenHandle(fullPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, FileOptions.Asynchronous | FileOptions.SequentialScan);
        try
        {
            return new OpenedFile(handle, name);
        }
        catch
        {
            handle.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Fills <paramref name="buffer"/> from <paramref name="offset"/>. Only a file truncated in place
    /// behind the server's back can end early (every write through the server is a new file); the
    /// transfer then cannot be completed honestly, and this throws. Its state machine is pooled:
    /// a download calls it once per block, and most reads complete asynchronously.
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask ReadExactlyAsync(Memory<byte> buffer, long offset, CancellationToken cancellationToken)
    {
        while (!buffer.IsEmpty)
        {
            var read = await RandomAccess.ReadAsync(_handle, buffer, offset, cancellationToken);
            if (read == 0)
            {
                throw new IOException($"'{_name}' ended at byte {offset}, before its size of {Length} bytes when it was opened.");
            }

            buffer = buffer[read..];
            offset += read;
        }
    }

    public void Dispose() => _handle.Dispose();
}
