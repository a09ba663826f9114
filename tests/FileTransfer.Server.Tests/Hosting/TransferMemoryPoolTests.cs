using System.Buffers;
using System.Runtime.InteropServices;
using FileTransfer.Server.Hosting;
using FileTransfer.Server.Rest;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>
/// The connection memory pool after a burst: idle blocks give their pages back to the system (read
/// with mincore(2), which says page by page what is resident), busy ones do not, and a released block
/// is rented only when no resident one is free. Linux, where the server runs and pages are given back.
/// </summary>
public sealed class TransferMemoryPoolTests
{
    private const int BlockSize = 32 * 1024;
    private const int Burst = TransferMemoryPool.ResidentReserve + 40;

    [Fact]
    public void Blocks_Start_On_A_Page_On_Linux()
    {
        using var pool = new TransferMemoryPool(BlockSize);
        using var block = pool.Rent();

        Assert.Equal(0, AddressOf(block.Memory) % Environment.SystemPageSize);
        Assert.Equal(BlockSize, block.Memory.Length);
    }

    [Fact]
    public void An_Idle_Pool_Gives_Back_The_Pages_Of_Its_Free_Blocks_Below_The_Reserve()
    {
        using var pool = new TransferMemoryPool(BlockSize);
        var blocks = RentWrittenBlocks(pool, Burst);
        blocks.ForEach(b => b.Dispose());

        // The first check sees the burst's rents; the next one, with none since, releases.
        Assert.Equal(0, pool.ReleaseIfIdle());
        Assert.All(blocks, b => Assert.Equal(1.0, ResidentShare(b.Memory)));
        Assert.Equal(Burst - TransferMemoryPool.ResidentReserve, pool.ReleaseIfIdle());

        // The reserve is the blocks returned last, and it stays resident.
        var released = blocks.Take(Burst - TransferMemoryPool.ResidentReserve).ToList();
        var reserve = blocks.Skip(Burst - TransferMemoryPool.ResidentReserve).ToList();
        Assert.All(released, b => Assert.Equal(0.0, ResidentShare(b.Memory)));
        Assert.All(reserve, b => Assert.Equal(1.0, ResidentShare(b.Memory)));
        Assert.Equal(0, pool.ReleaseIfIdle());
    }

    [Fact]
    public void A_Released_Block_Reads_As_Zeros_And_Takes_Writes_When_Rented_Again()
    {
        using var pool = new TransferMemoryPool(BlockSize);
        var blocks = RentWrittenBlocks(pool, Burst);
        blocks.ForEach(b => b.Dispose());
        pool.ReleaseIfIdle();
        pool.ReleaseIfIdle();

        var again = Enumerable.Range(0, Burst).Select(_ => pool.Rent()).ToList();

        // The resident reserve first, then the released blocks, the last released first.
        var reserve = blocks.Skip(Burst - TransferMemoryPool.ResidentReserve).Select(b => b.Memory);
        Assert.Equal(reserve, again.Take(TransferMemoryPool.ResidentReserve).Select(b => b.Memory));
        var coldest = again[^1];
        Assert.Equal(blocks[0].Memory, coldest.Memory);
        Assert.True(coldest.Memory.Span.IndexOfAnyExcept((byte)0) < 0);
        coldest.Memory.Span.Fill(0x5A);
        Assert.True(coldest.Memory.Span.IndexOfAnyExcept((byte)0x5A) < 0);
        Assert.Equal(1.0, ResidentShare(coldest.Memory));
        again.ForEach(b => b.Dispose());
    }

    [Fact]
    public void A_Pool_That_Rents_Between_Checks_Keeps_Its_Pages()
    {
        using var pool = new TransferMemoryPool(BlockSize);
        var blocks = RentWrittenBlocks(pool, Burst);
        blocks.ForEach(b => b.Dispose());

        for (var check = 0; check < 3; check++)
        {
            pool.Rent().Dispose();
            Assert.Equal(0, pool.ReleaseIfIdle());
        }

        Assert.All(blocks, b => Assert.Equal(1.0, ResidentShare(b.Memory)));
    }

    [Fact]
    public async Task The_Factory_Releases_An_Idle_Pool_On_Its_Own()
    {
        using var factory = new TransferMemoryPoolFactory(Options.Create(new TransferTuningOptions { MemoryPoolBlockBytes = BlockSize }));
        var pool = factory.Create();
        var blocks = RentWrittenBlocks(pool, Burst);
        blocks.ForEach(b => b.Dispose());

        // Two idle checks, one second apart: released within about two seconds, allowed ten.
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(10);
        while (ResidentShare(blocks[0].Memory) > 0 && DateTime.UtcNow < deadline)
        {
            await Task.Delay(100);
        }

        Assert.Equal(0.0, ResidentShare(blocks[0].Memory));
        Assert.Equal(1.0, ResidentShare(blocks[^1].Memory));
    }

    private static List<IMemoryOwner<byte>> RentWrittenBlocks(MemoryPool<byte> pool, int count)
    {
        var blocks = Enumerable.Range(0, count).Select(_ => pool.Rent()).ToList();
        blocks.ForEach(b => b.Memory.Span.Fill(0xA5));
        return blocks;
    }

    private static nint AddressOf(Memory<byte> memory)
    {
        Assert.True(MemoryMarshal.TryGetArray<byte>(memory, out var segment));
        return Marshal.UnsafeAddrOfPinnedArrayElement(segment.Array!, segment.Offset);
    }

    /// <summary>The share of <paramref name="memory"/>'s pages that are resident, by mincore(2).</summary>
    private static double ResidentShare(Memory<byte> memory)
    {
        var pageSize = Environment.SystemPageSize;
        var pages = memory.Length / pageSize;
        var vector = new byte[pages];
        Assert.Equal(0, Mincore(AddressOf(memory), (nuint)(pages * pageSize), vector));
        return vector.Count(b => (b & 1) != 0) / (double)pages;
    }

    [DllImport("libc", EntryPoint = "mincore", SetLastError = true)]
    private static extern int Mincore(nint address, nuint length, byte[] vector);
}
