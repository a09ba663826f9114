using System.Buffers;
using System.Security.Cryptography;

namespace FileTransfer.Client.Transfers;

internal static class Hashing
{
    private const int BufferSize = 128 * 1024;

    /// <summary>Feeds <paramref name="length"/> bytes of <paramref name="stream"/> from its current position into <paramref name="hash"/>.</summary>
    public static async Task AppendAsync(Stream stream, long? length, IncrementalHash hash, Action<int> read, CancellationToken cancellationToken)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(BufferSize);
        try
        {
            for (var left = length ?? long.MaxValue; left > 0;)
            {
                var count = await stream.ReadAsync(buffer.AsMemory(0, (int)Math.Min(buffer.Length, left)), cancellationToken);
                if (count == 0)
                {
                    if (length is not null)
                    {
                        throw new IOException("The stream ended before the length it had when the transfer started.");
                    }

                    return;
                }

                hash.AppendData(buffer, 0, count);
                left -= count;
                read(count);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    public static string Hex(byte[] digest) => Convert.ToHexStringLower(digest);
}
