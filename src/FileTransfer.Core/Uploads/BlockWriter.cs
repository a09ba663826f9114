using System.Buffers;
using System.Runtime.CompilerServices;

namespace FileTransfer.Core;

/// <summary>Where a <see cref="BlockWriter"/> sends its blocks: the staged object, or a session's lease, with the hash that follows the bytes.</summary>
internal interface IBlockSink
{
    /// <summary>Writes <paramref name="bytes"/>, a whole block or more (the last before a flush may be shorter).</summary>
    ValueTask WriteBlockAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken);
}

/// <summary>
/// Gathers an upload's pieces, whatever size the client cut them, into pooled blocks of
/// <see cref="BlockSize"/>, so that the backend's writes and the digest's updates are few and their
/// cost per byte does not depend on the client: one piece for every upload, streamed
/// (<see cref="Upload"/>) or resumable (<see cref="UploadSessionWrite"/>). A piece of a block or more
/// with nothing pending goes to the sink as it is, without a copy.
/// </summary>
internal sealed class BlockWriter(IBlockSink sink) : IDisposable
{
    /// <summary>Bytes gathered before each write.</summary>
    public const int BlockSize = 256 * 1024;

    private byte[]? _pending;
    private int _pendingLength;

    /// <summary>Bytes gathered and not written yet.</summary>
    public int Pending => _pendingLength;

    /// <summary>Takes one piece: tops up the pending block first, so that every write but the last before a flush is a whole block or more.</summary>
    // Pooled state machines: a gRPC upload calls this once per chunk.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask AppendAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        if (_pendingLength > 0 || bytes.Length < BlockSize)
        {
            var taken = Gather(bytes.Span);
            bytes = bytes[taken..];
            if (_pendingLength < BlockSize)
            {
                return;
            }

            await FlushAsync(cancellationToken);
        }

        if (bytes.Length >= BlockSize)
        {
            await sink.WriteBlockAsync(bytes, cancellationToken);
        }
        else if (!bytes.IsEmpty)
        {
            Gather(bytes.Span);
        }
    }

    /// <summary>Writes what is pending, however short. A write that throws leaves it pending.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask FlushAsync(CancellationToken cancellationToken)
    {
        if (_pendingLength > 0)
        {
            await sink.WriteBlockAsync(_pending.AsMemory(0, _pendingLength), cancellationToken);
            _pendingLength = 0;
        }
    }

    /// <summary>Forgets what is pending (bytes that will not be kept).</summary>
    public void Drop() => _pendingLength = 0;

    /// <summary>Returns the block to the pool; what was pending is dropped.</summary>
    public void Dispose()
    {
        if (_pending is not null)
        {
            ArrayPool<byte>.Shared.Return(_pending);
            _pending = null;
        }

        _pendingLength = 0;
    }

    /// <summary>Streams <paramref name="source"/> to its end into <paramref name="append"/> through one pooled buffer, a block at a time.</summary>
    public static async Task CopyAsync<TTarget>(Stream source, TTarget target, Func<TTarget, ReadOnlyMemory<byte>, CancellationToken, ValueTask> append, CancellationToken cancellationToken)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(BlockSize);
        try
        {
            int read;
            // Filling the buffer before each append keeps the backend's writes few on fast links.
            while ((read = await source.ReadAtLeastAsync(buffer.AsMemory(0, BlockSize), BlockSize, throwOnEndOfStream: false, cancellationToken)) > 0)
            {
                await append(target, buffer.AsMemory(0, read), cancellationToken);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    // Copies what fits of bytes into the pending block; returns how many bytes it took.
    private int Gather(ReadOnlySpan<byte> bytes)
    {
        _pending ??= ArrayPool<byte>.Shared.Rent(BlockSize);
        var taken = Math.Min(BlockSize - _pendingLength, bytes.Length);
        bytes[..taken].CopyTo(_pending.AsSpan(_pendingLength));
        _pendingLength += taken;
        return taken;
    }
}
