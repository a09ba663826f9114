namespace FileTransfer.Cli.Http;

/// <summary>
/// RFC 9530 integrity fields: <c>Repr-Digest</c> on downloads, <c>Content-Digest</c> on uploads.
/// Both are structured-field dictionaries (RFC 8941) of algorithm → byte sequence (<c>:base64:</c>).
/// </summary>
internal static class Digests
{
    public const string ContentDigest = "Content-Digest";
    public const string ReprDigest = "Repr-Digest";
    private const string Sha256Key = "sha-256";

    /// <summary><c>sha-256=:&lt;base64&gt;:</c>.</summary>
    public static string FormatSha256(byte[] digest) => $"{Sha256Key}=:{Convert.ToBase64String(digest)}:";

    /// <summary>The SHA-256 announced in <paramref name="headerName"/>, or null when there is none (or it is malformed).</summary>
    public static byte[]? ReadSha256(HttpResponseMessage response, string headerName)
    {
        if (!response.Headers.TryGetValues(headerName, out var values)
            && !response.Content.Headers.TryGetValues(headerName, out values))
        {
            return null;
        }

        // Several algorithms may be listed ("sha-512=:…:, sha-256=:…:"); only sha-256 is used.
        foreach (var member in values.SelectMany(v => v.Split(',')))
        {
            var pair = member.Trim().Split('=', 2);
            if (pair.Length == 2 && pair[0].Trim().Equals(Sha256Key, StringComparison.OrdinalIgnoreCase))
            {
                var value = pair[1].Trim();
                if (value.Length >= 2 && value[0] == ':' && value[^1] == ':')
                {
                    try
                    {
                        return Convert.FromBase64String(value[1..^1]);
                    }
                    catch (FormatException)
                    {
                        return null;
                    }
                }
            }
        }

        return null;
    }

    public static string Hex(byte[] digest) => Convert.ToHexStringLower(digest);
}
