using System.Security.Cryptography;
using System.Threading.Channels;
using FileTransfer.Client.Transport;

namespace FileTransfer.Client.Transfers;

/// <summary>
/// A download's SHA-256, computed on another thread than the one that receives the bytes: the
/// receiving thread writes each chunk and hands the chunk itself (its pooled array, <see cref="PooledChunk"/>)
/// to a second thread, which hashes it and returns the array while the next ones arrive. With a spare
/// core the digest (about 0.75 s of CPU per GiB) no longer stretches the time between two reads of
/// the socket. At most <see cref="Waiting"/> chunks wait, so memory stays bounded whatever the file's size.
/// </summary>
/// <remarks>
/// Measured (docs/performance-notes.md): hashing on the receiving thread made a REST download 1.36x
/// slower on two cores; copying each chunk into a block for the hashing thread, as this did before
/// chunks were handed over, was 10 % of the CLI's CPU for a gRPC download.
/// </remarks>
internal sealed class BackgroundHash : IAsyncDisposable
{
    // Chunks are at most 128 KiB (a REST read) and usually 32 KiB (a gRPC message): 1 to 4 MiB waiting.
    private const int Waiting = 32;

    private readonly IncrementalHash _hash;
    private Channel<PooledChunk> _chunks;
    private Task _hasher;

    /// <param name="hash">The hash to feed; it may hold bytes already (a resumed prefix). Used by this instance only until <see cref="FinishAsync"/>.</param>
    public BackgroundHash(IncrementalHash hash)
    {
        _hash = hash;
        (_chunks, _hasher) = Start();
    }

    /// <summary>Takes <paramref name="chunk"/> to be hashed and returned to its pool; the caller must not use it after, even when this fails.</summary>
    public async ValueTask AppendAsync(PooledChunk chunk, CancellationToken cancellationToken)
    {
        try
        {
            await _chunks.Writer.WriteAsync(chunk, cancellationToken);
        }
        catch
        {
            chunk.Return();
            throw;
        }
    }

    /// <summary>The digest of every byte appended since the start (or the last reset), which starts again from nothing.</summary>
    public async Task<byte[]> FinishAsync()
    {
        await DrainAsync();
        return _hash.GetHashAndReset();
    }

    /// <summary>Forgets every byte appended so far (a download that starts over).</summary>
    public async Task ResetAsync() => await FinishAsync();

    public async ValueTask DisposeAsync()
    {
        _chunks.Writer.TryComplete();
        try
        {
            await _hasher;
        }
        catch (Exception)
        {
            // A failure of the hash was reported to the call that met it; disposing only releases.
        }

        // Chunks the hasher did not take (it failed) still go back to the pool.
        while (_chunks.Reader.TryRead(out var chunk))
        {
            chunk.Return();
        }
    }

    // Waits until the hashing thread has taken in every chunk given so far, then starts a new one.
    // Not cancelled: a few chunks at most are left, and the hash must be idle before it is read or reset.
    private async Task DrainAsync()
    {
        _chunks.Writer.TryComplete();
        await _hasher;
        (_chunks, _hasher) = Start();
    }

    private (Channel<PooledChunk>, Task) Start()
    {
        var channel = Channel.CreateBounded<PooledChunk>(new BoundedChannelOptions(Waiting) { SingleReader = true, SingleWriter = true });
        return (channel, Task.Run(() => HashAsync(channel.Reader), CancellationToken.None));
    }

    // Ends when the channel is completed: by a drain (every chunk is hashed first) or a dispose.
    private async Task HashAsync(ChannelReader<PooledChunk> reader)
    {
        await foreach (var chunk in reader.ReadAllAsync(CancellationToken.None))
        {
            try
            {
                _hash.AppendData(chunk.Array, 0, chunk.Length);
            }
            finally
            {
                chunk.Return();
            }
        }
    }
}
