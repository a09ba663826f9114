using System.Diagnostics.CodeAnalysis;

namespace FileTransfer.Server.Rest;

/// <summary>
/// RFC 9530 integrity fields: <c>Content-Digest</c> / <c>Repr-Digest</c> are Structured Field
/// dictionaries (RFC 8941) of algorithm = :base64 bytes:. We produce and check sha-256.
/// </summary>
internal static class ContentDigest
{
    public const string ReprDigestHeader = "Repr-Digest";
    public const string ContentDigestHeader = "Content-Digest";
    public const string WantContentDigestHeader = "Want-Content-Digest";
    private const string Sha256Key = "sha-256";

    public static string Format(byte[] sha256) => $"{Sha256Key}=:{Convert.ToBase64String(sha256)}:";

    /// <summary>
    /// Reads the sha-256 member of a digest field. False with an error when the field is malformed
    /// or carries only algorithms we do not verify (RFC 9530 5: we then ask for sha-256).
    /// </summary>
    public static bool TryParseSha256(string field, [NotNullWhen(true)] out byte[]? sha256, [NotNullWhen(false)] out string? error)
    {
        sha256 = null;
        foreach (var member in field.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
        {
            var equals = member.IndexOf('=', StringComparison.Ordinal);
            if (equals <= 0)
            {
                error = $"'{member}' is not a 'key=:base64:' member.";
                return false;
            }

            var key = member[..equals].Trim();
            var value = member[(equals + 1)..].Split(';')[0].Trim();
            if (value.Length < 2 || value[0] != ':' || value[^1] != ':')
            {
                error = $"The value of '{key}' is not a byte sequence ':base64:'.";
                return false;
            }

            if (key.Equals(Sha256Key, StringComparison.Ordinal))
            {
                var bytes = new byte[32];
                if (!Convert.TryFromBase64String(value[1..^1], bytes, out var written) || written != bytes.Length)
                {
                    error = "The sha-256 value is not 32 bytes of base64.";
                    return false;
                }

                sha256 = bytes;
            }
        }

        error = sha256 is null ? "Only sha-256 digests are verified; send sha-256=:<base64>:." : null;
        return sha256 is not null;
    }
}
