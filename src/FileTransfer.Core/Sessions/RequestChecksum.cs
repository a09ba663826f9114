using System.Security.Cryptography;

namespace FileTransfer.Core;

/// <summary>
/// A checksum of the bytes of one request to a session (tus checksum extension <c>Upload-Checksum</c>,
/// the draft's per-request <c>Content-Digest</c>): the request's bytes are kept only when they match
/// it, all or none, so a request that carries one and is cut short keeps nothing.
/// </summary>
public sealed class RequestChecksum : IDisposable
{
    /// <summary>The algorithms a request may name, as tus spells them: sha1 (which tus requires every server to offer) and sha256.</summary>
    public static readonly IReadOnlyList<string> Algorithms = ["sha1", "sha256"];

    private readonly IncrementalHash _hash;
    private readonly byte[] _expected;

    private RequestChecksum(HashAlgorithmName algorithm, byte[] expected)
    {
        _hash = IncrementalHash.CreateHash(algorithm);
        _expected = expected;
    }

    /// <summary>
    /// The checksum <paramref name="algorithm"/> (one of <see cref="Algorithms"/>) with value
    /// <paramref name="expected"/>; refuses (<see cref="ErrorReason.InvalidUploadStream"/>) another
    /// algorithm or a value of the wrong size.
    /// </summary>
    public static RequestChecksum Create(string algorithm, byte[] expected)
    {
        var (name, size) = algorithm switch
        {
            "sha1" => (HashAlgorithmName.SHA1, SHA1.HashSizeInBytes),
            "sha256" => (HashAlgorithmName.SHA256, SHA256.HashSizeInBytes),
            _ => throw new FileTransferException(ErrorReason.InvalidUploadStream, $"The checksum algorithm '{algorithm}' is not supported; use one of {string.Join(", ", Algorithms)}."),
        };
        return expected.Length == size
            ? new RequestChecksum(name, expected)
            : throw new FileTransferException(ErrorReason.InvalidUploadStream, $"A {algorithm} checksum is {size} bytes, not {expected.Length}.");
    }

    internal void Append(ReadOnlySpan<byte> bytes) => _hash.AppendData(bytes);

    internal bool Matches() => CryptographicOperations.FixedTimeEquals(_hash.GetHashAndReset(), _expected);

    public void Dispose() => _hash.Dispose();
}
