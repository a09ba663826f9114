using System.Buffers;
using System.Security.Cryptography;
using System.Threading.Channels;

namespace FileTransfer.Client.Transfers;

/// <summary>
/// Writes a download's bytes to its destination and feeds them to its SHA-256 on another thread
/// than the one that receives them: the receiving thread only copies each chunk into a pooled
/// block, and a second thread writes and hashes whole blocks while the next ones arrive. On a
/// machine with a spare core the digest (about 0.75 s of CPU per GiB) and the write no longer
/// stretch the time between two reads of the socket. At most <see cref="Blocks"/> blocks wait,
/// so memory stays bounded whatever the file's size.
/// </summary>
internal sealed class HashingWriter : IAsyncDisposable
{
    /// <summary>Bytes per block: large enough that a write and a hash call cost little per byte, small enough to keep the two threads busy together.</summary>
    public const int BlockSize = 1024 * 1024;

    /// <summary>Blocks that may wait to be written (a full block or two in flight on each side).</summary>
    private const int Blocks = 4;

    private readonly Stream _destination;
    private readonly IncrementalHash _hash;
    private Channel<(byte[] Block, int Length)> _full;
    private Task _consumer;
    private byte[]? _block;
    private int _filled;

    public HashingWriter(Stream destination, IncrementalHash hash)
    {
        _destination = destination;
        _hash = hash;
        (_full, _consumer) = Start();
    }

    /// <summary>Copies <paramref name="chunk"/>; the caller may reuse its memory as soon as this returns.</summary>
    public async ValueTask WriteAsync(ReadOnlyMemory<byte> chunk, CancellationToken cancellationToken)
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

    /// <summary>Waits until every byte given so far is written and hashed; then the hash and the destination may be used directly.</summary>
    public async Task DrainAsync(CancellationToken cancellationToken)
    {
        if (_filled > 0)
        {
            await HandOverAsync(cancellationToken);
        }

        _full.Writer.TryComplete();
        var consumer = _consumer;
        (_full, _consumer) = Start();
        await consumer.WaitAsync(cancellationToken);
    }

    public async ValueTask DisposeAsync()
    {
        _full.Writer.TryComplete();
        try
        {
            await _consumer;

            // A transfer that failed or was cancelled before its drain keeps every byte it received in
            // the destination (a download's .part is resumed from its length); the digest no longer matters then.
            if (_filled > 0)
            {
                _destination.Write(_block!, 0, _filled);
            }
        }
        catch (Exception)
        {
            // Reported where it mattered (a write or a drain); a dispose after a failure only releases.
        }

        Release(_block);
        _block = null;
        while (_full.Reader.TryRead(out var waiting))
        {
            Release(waiting.Block);
        }
    }

    private async ValueTask HandOverAsync(CancellationToken cancellationToken)
    {
        var block = _block!;
        var length = _filled;
        _block = null;
        _filled = 0;
        await SendAsync((block, length), cancellationToken);
    }

    private async ValueTask SendAsync((byte[] Block, int Length) item, CancellationToken cancellationToken)
    {
        try
        {
            await _full.Writer.WriteAsync(item, cancellationToken);
        }
        catch (ChannelClosedException e) when (e.InnerException is not null)
        {
            // The consumer failed (a full disk, a closed pipe): its error, not the channel's.
            Release(item.Block);
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(e.InnerException);
        }
        catch
        {
            Release(item.Block);
            throw;
        }
    }

    private (Channel<(byte[] Block, int Length)>, Task) Start()
    {
        var channel = Channel.CreateBounded<(byte[] Block, int Length)>(new BoundedChannelOptions(Blocks) { SingleReader = true, SingleWriter = true });
        return (channel, Task.Run(() => ConsumeAsync(channel.Reader, channel.Writer), CancellationToken.None));
    }

    private async Task ConsumeAsync(ChannelReader<(byte[] Block, int Length)> reader, ChannelWriter<(byte[] Block, int Length)> writer)
    {
        try
        {
            // Not cancelled: what was received is written even when the transfer is cancelled (a
            // download's .part keeps it for the next run); the channel's end stops this loop.
            await foreach (var (block, length) in reader.ReadAllAsync(CancellationToken.None))
            {
                try
                {
                    // Synchronous: this thread exists to do this work, and a page-cache write returns at once.
                    _destination.Write(block, 0, length);
                    _hash.AppendData(block, 0, length);
                }
                finally
                {
                    Release(block);
                }
            }
        }
        catch (Exception e)
        {
            writer.TryComplete(e);
            throw;
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
