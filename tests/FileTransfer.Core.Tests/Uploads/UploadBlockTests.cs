using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Uploads;

/// <summary>
/// However a client cuts its body, the backend receives blocks of at least <see cref="Upload.BlockSize"/>
/// but the last (the promise of <see cref="IStagedObject.WriteAsync"/>), holding exactly the body's bytes.
/// </summary>
public sealed class UploadBlockTests
{
    private const int Block = Upload.BlockSize;

    private readonly InMemoryBackend _backend = new();

    private static CancellationToken Token => TestTimeout.Token;

    public static TheoryData<int[], int> Cuts => new()
    {
        { [1], (2 * Block) + 1001 },
        { [7], (3 * Block) + 5 },
        { [32 * 1024], (3 * 1024 * 1024) + 12_345 },
        { [Block - 1], (4 * Block) + 3 },
        { [Block], 3 * Block },
        { [Block + 1], (3 * Block) + 10 },
        { [1_000_000], (3 * 1024 * 1024) + 12_345 },
        { [7, Block + 1], (3 * Block) + 100 },
        { [32 * 1024, 32 * 1024, 1_000_000], (4 * 1024 * 1024) + 1 },
    };

    [Theory]
    [MemberData(nameof(Cuts))]
    public async Task The_Backend_Receives_Blocks_Of_At_Least_BlockSize_Except_The_Last(int[] pieceSizes, int size)
    {
        var source = TestBytes.Random(size);
        var files = Operations.Over(_backend);

        var token = Token;

        await using (var upload = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("cut.bin") { DeclaredLength = size }, token))
        {
            var offset = 0;
            for (var i = 0; offset < size; i++)
            {
                var length = Math.Min(pieceSizes[i % pieceSizes.Length], size - offset);
                await upload.AppendAsync(source.AsMemory(offset, length), token);
                offset += length;
            }

            var stored = await files.CommitAsync(upload, token);
            Assert.Equal(TestBytes.Sha256(source), Convert.ToHexString(stored.Sha256));
        }

        AssertBlocks(Assert.Single(_backend.Stagings).Writes, size);
        await AssertStoredAsync(files, source);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(1000)]
    [InlineData(Block + 1)]
    public async Task A_Body_Read_From_A_Stream_That_Trickles_Reaches_The_Backend_In_Whole_Blocks(int readSize)
    {
        const int size = (3 * Block) + 77;
        var source = TestBytes.Random(size);
        var files = Operations.Over(_backend);

        await using (var upload = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("cut.bin"), Token))
        {
            await upload.CopyFromAsync(new TricklingStream(source, readSize), Token);
            await files.CommitAsync(upload, Token);
        }

        AssertBlocks(Assert.Single(_backend.Stagings).Writes, size);
        await AssertStoredAsync(files, source);
    }

    [Fact]
    public async Task An_Empty_Body_Writes_Nothing_And_Stores_An_Empty_File()
    {
        var files = Operations.Over(_backend);

        await using (var upload = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("empty.bin") { DeclaredLength = 0 }, Token))
        {
            await upload.AppendAsync(ReadOnlyMemory<byte>.Empty, Token);
            await files.CommitAsync(upload, Token);
        }

        Assert.Equal(0, Assert.Single(_backend.Stagings).Writes.Sum());
        await AssertStoredAsync(files, []);
    }

    private static void AssertBlocks(IReadOnlyList<int> writes, int size)
    {
        Assert.Equal(size, writes.Sum());
        for (var i = 0; i < writes.Count - 1; i++)
        {
            Assert.True(writes[i] >= Block, $"Write {i} of {writes.Count} has {writes[i]} bytes, fewer than a block ({Block}), and is not the last: [{string.Join(", ", writes)}]");
        }
    }

    private static async Task AssertStoredAsync(FileOperations files, byte[] source)
    {
        await using var opened = await files.OpenAsync(TestCallers.Full, source.Length == 0 ? "empty.bin" : "cut.bin", Preconditions.None, Token);
        await using var bytes = await opened.OpenReadAsync(0, opened.Version.Size, Token);
        Assert.Equal(TestBytes.Sha256(source), TestBytes.Sha256(await TestBytes.ReadToEndAsync(bytes, Token)));
    }

    /// <summary>A body that arrives at most <paramref name="readSize"/> bytes per read, as a slow network hands it over.</summary>
    private sealed class TricklingStream(byte[] bytes, int readSize) : MemoryStream(bytes, writable: false)
    {
        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            base.ReadAsync(buffer[..Math.Min(buffer.Length, readSize)], cancellationToken);

        public override int Read(Span<byte> buffer) => base.Read(buffer[..Math.Min(buffer.Length, readSize)]);
    }
}
