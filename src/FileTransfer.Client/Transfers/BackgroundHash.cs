using System.Buffers;
using System.Security.Cryptography;
using System.Threading.Channels;

namespace FileTransfer.Client.Transfers;

/// <summary>
/// A download's SHA-256, computed on another thread than the one that receives the bytes: the
/// receiving thread writes each chunk and copies it into a pooled block (a memory copy is about 40
/// times cheaper than the digest), and a second thread hashes whole blocks while the next ones
/// arrive. With a spare core the digest (about 0.75 s of CPU per GiB) no longer stretches the time
/// between two reads of the socket. At most <see cref="Waiting"/> blocks wait, so memory stays
/// bounded whatever the file's size.
/// </summary>
/// <remarks>
/// Measured (docs/performance-notes.md): 128 KiB blocks; with 1 MiB blocks the writes of the file
/// cost twice the system time, and writing on the hashing thread instead of the receiving one moved nothing.
/// </remarks>
internal sealed class BackgroundHash : IAsyncDisposable
{
    private const int BlockSize = 128 * 1024;
    private const int Waiting = 8;

    private readonly IncrementalHash _hash;
    private Channel<(byte[] Block, int Length)> _blocks;
    private Task _hasher;
    private byte[]? _block;
    private int _filled;

    /// <param name="hash">The hash to feed; it may hold bytes already (a resumed prefix). Used by this instance only until <see cref="FinishAsync"/>.</param>
    public BackgroundHash(IncrementalHash hash)
    {
        _hash = hash;
        (_blocks, _hasher) = Start();
    }

    /// <summary>Copies <paramref name="chunk"/> to be hashed; the caller may reuse its memory as soon as this returns.</summary>
    public async ValueTask AppendAsync(ReadOnlyMemory<byte> chunk, CancellationToken cancellationToken)
    {
        while (!chunk.IsEmpty)
        {
            _block ??= ArrayPool<byte>.Shared.Rent(BlockSize);
            var count = Math.Min(chunk.Length, BlockSize - _filled);
            chunk[..count].CopyTo(_block.AsMemory(_filled));
            _filled += count;
            chunk = chunk[count..];
            if (_filled == BlockSize)
            {
                await HandOverAsync(cancellationToken);
            }
        }
    }

    /// <summary>The digest of every byte appended since the start (or the last reset), which starts again from nothing.</summary>
    public async Task<byte[]> FinishAsync(CancellationToken cancellationToken)
    {
        await DrainAsync(cancellationToken);
        return _hash.GetHashAndReset();
    }

    /// <summary>Forgets every byte appended so far (a download that starts over).</summary>
    public async Task ResetAsync(CancellationToken cancellationToken) => await FinishAsync(cancellationToken);

    public async ValueTask DisposeAsync()
    {
        _blocks.Writer.TryComplete();
        try
        {
            await _hasher;
        }
        catch (Exception)
        {
            // A failure of the hash was reported to the call that met it; disposing only releases.
        }

        Release(_block);
        _block = null;
    }

    // Waits until the hashing thread has taken in every byte given so far, then starts a new one.
    private async Task DrainAsync(CancellationToken cancellationToken)
    {
        if (_filled > 0)
        {
            await HandOverAsync(cancellationToken);
        }

        // Not cancelled: a few blocks at most are left, and the hash must be idle before it is read or reset.
        _blocks.Writer.TryComplete();
        await _hasher;
        (_blocks, _hasher) = Start();
    }

    private async ValueTask HandOverAsync(CancellationToken cancellationToken)
    {
        var item = (_block!, _filled);
        _block = null;
        _filled = 0;
        try
        {
            await _blocks.Writer.WriteAsync(item, cancellationToken);
        }
        catch
        {
            Release(item.Item1);
            throw;
        }
    }

    private (Channel<(byte[] Block, int Length)>, Task) Start()
    {
        var channel = Channel.CreateBounded<(byte[] Block, int Length)>(new BoundedChannelOptions(Waiting) { SingleReader = true, SingleWriter = true });
        return (channel, Task.Run(() => HashAsync(channel.Reader), CancellationToken.None));
    }

    // Ends when the channel is completed: by a drain (every block is hashed first) or a dispose.
    private async Task HashAsync(ChannelReader<(byte[] Block, int Length)> reader)
    {
        await foreach (var (block, length) in reader.ReadAllAsync(CancellationToken.None))
        {
            _hash.AppendData(block, 0, length);
            Release(block);
        }
    }

    private static void Release(byte[]? block)
    {
        if (block is not null)
        {
            ArrayPool<byte>.Shared.Return(block);
        }
    }
}
