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
    private readonly bool _isContentDigest;

    private RequestChecksum(HashAlgorithmName algorithm, byte[] expected, bool isContentDigest = false)
    {
        _hash = IncrementalHash.CreateHash(algorithm);
        _expected = expected;
        _isContentDigest = isContentDigest;
    }

    /// <summary>
    /// A request's <c>Content-Digest</c> (RFC 9530 2: sha-256 of this message's content), as the IETF
    /// draft sends it. A mismatch is refused as a plain upload's is (<see cref="ErrorReason.DigestMismatch"/>),
    /// not with tus's checksum answer; either way none of the request's bytes are kept.
    /// </summary>
    public static RequestChecksum ContentDigest(byte[] sha256) =>
        sha256.Length == SHA256.HashSizeInBytes
            ? new RequestChecksum(HashAlgorithmName.SHA256, sha256, isContentDigest: true)
            : throw new FileTransferException(ErrorReason.InvalidUploadStream, $"A sha-256 digest is {SHA256.HashSizeInBytes} bytes, not {sha256.Length}.");

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

    /// <summary>The refusal of bytes that do not match.</summary>
    internal FileTransferException Mismatch() => _isContentDigest ? Failures.ContentDigestMismatch() : Failures.ChecksumMismatch();

    public void Dispose() => _hash.Dispose();
}
