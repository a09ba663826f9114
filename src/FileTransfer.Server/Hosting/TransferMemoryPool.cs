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
/// one or two buffers. Blocks are pinned managed arrays (sockets need no pinning per call, and
/// Kestrel's socket sends need arrays) and reused; at most
/// <see cref="MaxRetainedBytes"/> of free blocks are kept (enough for 64 connections each with a full
/// 1 MiB write buffer, see KestrelTuning), the rest is left to the GC. One pool serves every endpoint
/// and I/O queue (<see cref="TransferMemoryPoolFactory"/>), so it lives as long as the process.
/// </summary>
/// <remarks>
/// After a burst of transfers the free blocks would hold the burst's memory for the rest of the
/// process's life: pinned blocks go back to the system only after a full collection, and only if
/// dropped. So when nothing was rented for a whole idle check (<see cref="ReleaseIfIdle"/>), the
/// free blocks beyond the <see cref="ResidentReserve"/> returned last give their pages back to the
/// system at once (Linux: madvise MADV_DONTNEED) and move to a stack of released blocks, which a
/// rent takes from only when no resident block is free: a later, smaller burst touches only the
/// blocks it needs, and a block whose pages were given back reads as zeros until its next write
/// pages it in again. Each block is the page-aligned part of its array for that. Renting and
/// returning stay lock-free while blocks are resident (the released stack takes a lock).
/// </remarks>
internal sealed class TransferMemoryPool(int blockSize) : MemoryPool<byte>
{
    private const long MaxRetainedBytes = 128L * 1024 * 1024;

    /// <summary>Free blocks that stay resident through an idle spell: the first transfers after it start without page faults.</summary>
    internal const int ResidentReserve = 32;

    private static readonly int PageSize = Environment.SystemPageSize;
    private static readonly bool CanReleasePages = OperatingSystem.IsLinux();

    private readonly ConcurrentQueue<Block> _free = new();
    private readonly int _maxRetained = (int)Math.Max(1, MaxRetainedBytes / blockSize);
    private readonly Lock _releasedLock = new();
    private readonly Stack<Block> _released = new();
    private volatile int _releasedCount; // _released.Count, for the rent and the return to read without the lock
    private volatile bool _rentedSinceCheck;

    public override int MaxBufferSize => blockSize;

    public override IMemoryOwner<byte> Rent(int minBufferSize = -1)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan(minBufferSize, blockSize);

        // Read before written: the flag's cache line is not bounced between cores on every rent.
        if (!_rentedSinceCheck)
        {
            _rentedSinceCheck = true;
        }

        if (_free.TryDequeue(out var block))
        {
            return block;
        }

        if (_releasedCount > 0)
        {
            lock (_releasedLock)
            {
                if (_released.TryPop(out block))
                {
                    _releasedCount = _released.Count;
                    return block;
                }
            }
        }

        return Block.Allocate(this, blockSize);
    }

    /// <summary>
    /// Gives back the pages of the free blocks beyond the reserve when nothing was rented since the
    /// previous call; returns how many blocks it released. Called by the factory's timer.
    /// </summary>
    internal int ReleaseIfIdle()
    {
        if (_rentedSinceCheck)
        {
            _rentedSinceCheck = false;
            return 0;
        }

        if (!CanReleasePages)
        {
            return 0;
        }

        // The queue gives the blocks returned first: those beyond the reserve go.
        var released = 0;
        while (_free.Count > ResidentReserve && _free.TryDequeue(out var block))
        {
            block.ReleasePages();
            lock (_releasedLock)
            {
                _released.Push(block);
                _releasedCount = _released.Count;
            }

            released++;
        }

        return released;
    }

    // Kestrel disposes the pool it was given when an endpoint stops, while the other endpoints go
    // on renting from it: the shared pool outlives each of them, and its blocks are managed arrays.
    protected override void Dispose(bool disposing)
    {
    }

    private void Return(Block block)
    {
        if (_free.Count + _releasedCount < _maxRetained)
        {
            _free.Enqueue(block);
        }
    }

    private sealed class Block : IMemoryOwner<byte>
    {
        private readonly TransferMemoryPool _pool;
        private readonly byte[] _array;
        private readonly int _offset;

        private Block(TransferMemoryPool pool, byte[] array, int offset, int length)
        {
            _pool = pool;
            _array = array;
            _offset = offset;
            Memory = MemoryMarshal.CreateFromPinnedArray(array, offset, length);
        }

        public Memory<byte> Memory { get; }

        /// <summary>A block whose memory starts on a page (Linux), so that its pages can be given back whole.</summary>
        public static Block Allocate(TransferMemoryPool pool, int length)
        {
            if (!CanReleasePages)
            {
                return new Block(pool, GC.AllocateUninitializedArray<byte>(length, pinned: true), 0, length);
            }

            var array = GC.AllocateUninitializedArray<byte>(length + PageSize - 1, pinned: true);
            var address = Marshal.UnsafeAddrOfPinnedArrayElement(array, 0);
            return new Block(pool, array, (int)((PageSize - (address % PageSize)) % PageSize), length);
        }

        public void Dispose() => _pool.Return(this);

        /// <summary>Gives the block's whole pages back to the system; its bytes read as zeros until written.</summary>
        public void ReleasePages()
        {
            var wholePages = Memory.Length / PageSize * PageSize;
            if (wholePages > 0)
            {
                MemoryAdvice.DontNeed(Marshal.UnsafeAddrOfPinnedArrayElement(_array, _offset), wholePages);
            }
        }
    }
}

/// <summary>madvise(2), for giving pages back to the system without unmapping them.</summary>
internal static class MemoryAdvice
{
    private const int MadvDontNeed = 4;

    /// <summary>MADV_DONTNEED on <paramref name="length"/> bytes from the page-aligned <paramref name="start"/>: resident no more, zeros when read again.</summary>
    public static bool DontNeed(nint start, int length) => Madvise(start, (nuint)length, MadvDontNeed) == 0;

    [DllImport("libc", EntryPoint = "madvise", SetLastError = true)]
    private static extern int Madvise(nint address, nuint length, int advice);
}

/// <summary>
/// Hands Kestrel's transports one <see cref="TransferMemoryPool"/> with the configured block size.
/// Kestrel asks for a pool per endpoint and per I/O queue (four on two cores with the two shipped
/// endpoints). With a pool each, blocks freed by the downloads of one endpoint could not serve the
/// next transfers of another, and the process held the free blocks of every pool at once: 64
/// concurrent REST downloads and then 64 gRPC ones peaked 35 MB higher (docs/performance-notes.md,
/// "the 64-concurrent peak"). Checks the pool for idleness every <see cref="IdleCheckPeriod"/>.
/// </summary>
internal sealed class TransferMemoryPoolFactory : IMemoryPoolFactory<byte>, IDisposable
{
    /// <summary>A pool with no rent for a whole period gives back its idle blocks' pages: after one to two seconds without a transfer.</summary>
    public static readonly TimeSpan IdleCheckPeriod = TimeSpan.FromSeconds(1);

    private readonly TransferMemoryPool _shared;
    private readonly Timer _idleCheck;

    public TransferMemoryPoolFactory(IOptions<TransferTuningOptions> options)
    {
        _shared = new TransferMemoryPool(options.Value.MemoryPoolBlockBytes);
        _idleCheck = new Timer(static pool => ((TransferMemoryPool)pool!).ReleaseIfIdle(), _shared, IdleCheckPeriod, IdleCheckPeriod);
    }

    public MemoryPool<byte> Create(MemoryPoolOptions? poolOptions = null) => _shared;

    public void Dispose() => _idleCheck.Dispose();
}
