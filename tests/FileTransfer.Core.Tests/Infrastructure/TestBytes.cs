using System.Security.Cryptography;

namespace FileTransfer.Core.Tests.Infrastructure;

/// <summary>Random content, its SHA-256, and the uneven pieces a client cuts it into.</summary>
internal static class TestBytes
{
    /// <summary>Piece sizes that straddle every block boundary: 1 byte, odd sizes, a gRPC chunk, one past a block.</summary>
    private static readonly int[] PieceSizes = [1, 7, 1000, 32 * 1024, Upload.BlockSize + 3, 65_521];

    public static byte[] Random(int size)
    {
        var bytes = new byte[size];
        System.Random.Shared.NextBytes(bytes);
        return bytes;
    }

    public static string Sha256(ReadOnlySpan<byte> bytes) => Convert.ToHexString(SHA256.HashData(bytes));

    /// <summary><paramref name="bytes"/> cut into pieces of the sizes in turn, the last one whatever remains.</summary>
    public static IEnumerable<ReadOnlyMemory<byte>> UnevenPieces(byte[] bytes)
    {
        var offset = 0;
        for (var i = 0; offset < bytes.Length; i++)
        {
            var length = Math.Min(PieceSizes[i % PieceSizes.Length], bytes.Length - offset);
            yield return bytes.AsMemory(offset, length);
            offset += length;
        }
    }

    /// <summary><paramref name="bytes"/> cut into pieces of <paramref name="pieceSize"/>, the last one whatever remains.</summary>
    public static IEnumerable<ReadOnlyMemory<byte>> Pieces(byte[] bytes, int pieceSize)
    {
        for (var offset = 0; offset < bytes.Length; offset += pieceSize)
        {
            yield return bytes.AsMemory(offset, Math.Min(pieceSize, bytes.Length - offset));
        }
    }

    /// <summary>
    /// Reads the stream to its end through a buffer larger than what is left, so that a stream that
    /// gives more bytes than it should, or fewer, shows in what it returns.
    /// </summary>
    public static async Task<byte[]> ReadToEndAsync(Stream stream, CancellationToken cancellationToken)
    {
        using var copy = new MemoryStream();
        var buffer = new byte[81_919];
        int read;
        while ((read = await stream.ReadAsync(buffer, cancellationToken)) > 0)
        {
            copy.Write(buffer, 0, read);
        }

        return copy.ToArray();
    }
}
