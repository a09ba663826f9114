using System.Buffers;
using System.Collections.Concurrent;
using System.Runtime.InteropServices;
using FileTransfer.Server.Rest;
using Microsoft.AspNetCore.Connections;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// Kestrel's connection memory comes in 4 KiB blocks, so a 16 KiB HTTP/2 DATA frame spans five of
/// them and one send of the connection's pipe spans a dozen or more. Socket sends of more than 8
/// buffers allocate their iovec and GCHandle arrays on every call (System.Net.Sockets, Unix),
/// which was most of the server's allocations per GiB over HTTP/2. Larger blocks keep a frame in
/// one or two buffers. Blocks are pinned (sockets need no pinning per call) and reused; at most
/// <see cref="MaxRetainedBytes"/> of free blocks are kept (enough for 64 connections each with a full
/// 1 MiB write buffer, see KestrelTuning), the rest is left to the GC. One pool serves every endpoint
/// and I/O queue (<see cref="TransferMemoryPoolFactory"/>), so it lives as long as the process.
/// </summary>
internal sealed class TransferMemoryPool(int blockSize) : MemoryPool<byte>
{
    private const long MaxRetainedBytes = 128L * 1024 * 1024;
    private readonly ConcurrentQueue<Block> _free = new();
    private readonly int _maxRetained = (int)Math.Max(1, MaxRetainedBytes / blockSize);

    public override int MaxBufferSize => blockSize;

    public override IMemoryOwner<byte> Rent(int minBufferSize = -1)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan(minBufferSize, blockSize);
        return _free.TryDequeue(out var block) ? block : new Block(this, GC.AllocateUninitializedArray<byte>(blockSize, pinned: true));
    }

    // Kestrel disposes the pool it was given when an endpoint stops, while the other endpoints go
    // on renting from it: the shared pool outlives each of them, and its blocks are managed arrays.
    protected override void Dispose(bool disposing)
    {
    }

    private void Return(Block block)
    {
        if (_free.Count < _maxRetained)
        {
            _free.Enqueue(block);
        }
    }

    private sealed class Block(TransferMemoryPool pool, byte[] array) : IMemoryOwner<byte>
    {
        public Memory<byte> Memory { get; } = MemoryMarshal.CreateFromPinnedArray(array, 0, array.Length);

        public void Dispose() => pool.Return(this);
    }
}

/// <summary>
/// Hands Kestrel's transports one <see cref="TransferMemoryPool"/> with the configured block size.
/// Kestrel asks for a pool per endpoint and per I/O queue (four on two cores with the two shipped
/// endpoints). With a pool each, blocks freed by the downloads of one endpoint could not serve the
/// next transfers of another, and the process held the free blocks of every pool at once: 64
/// concurrent REST downloads and then 64 gRPC ones peaked 35 MB higher (docs/performance-notes.md,
/// "the 64-concurrent peak").
/// </summary>
internal sealed class TransferMemoryPoolFactory(IOptions<TransferTuningOptions> options) : IMemoryPoolFactory<byte>
{
    private readonly TransferMemoryPool _shared = new(options.Value.MemoryPoolBlockBytes);

    public MemoryPool<byte> Create(MemoryPoolOptions? poolOptions = null) => _shared;
}
