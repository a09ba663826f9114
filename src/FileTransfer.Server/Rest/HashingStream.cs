using System.Buffers;
using System.Security.Cryptography;
using FileTransfer.Core;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Reads through to <paramref name="inner"/> and hashes every byte it returns (SHA-256), so that a
/// digest of a whole request body can be checked while a parser consumes it in its own pieces.
/// </summary>
internal sealed class HashingStream(Stream inner) : ReadOnlyStream
{
    private const int DrainBufferSize = 64 * 1024;

    private readonly IncrementalHash _hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);

    /// <summary>Reads what the parser left (a multipart epilogue), then compares the digest of every byte with <paramref name="expected"/>.</summary>
    public async Task<bool> HasSha256Async(byte[] expected, CancellationToken cancellationToken)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(DrainBufferSize);
        try
        {
            while (await ReadAsync(buffer.AsMemory(0, DrainBufferSize), cancellationToken) > 0)
            {
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }

        return CryptographicOperations.FixedTimeEquals(expected, _hash.GetHashAndReset());
    }

    public override int Read(Span<byte> buffer)
    {
        var read = inner.Read(buffer);
        _hash.AppendData(buffer[..read]);
        return read;
    }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        var read = await inner.ReadAsync(buffer, cancellationToken);
        _hash.AppendData(buffer.Span[..read]);
        return read;
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _hash.Dispose();
        }

        base.Dispose(disposing);
    }
}
