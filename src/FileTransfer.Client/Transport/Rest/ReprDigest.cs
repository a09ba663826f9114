namespace FileTransfer.Client.Transport.Rest;

/// <summary>
/// RFC 9530 integrity fields: <c>Repr-Digest</c> on downloads, <c>Content-Digest</c> on uploads.
/// Both are structured-field dictionaries (RFC 8941) of algorithm → byte sequence (<c>:base64:</c>).
/// </summary>
internal static class ReprDigest
{
    public const string ContentDigest = "Content-Digest";
    public const string Header = "Repr-Digest";
    private const string Sha256Key = "sha-256";

    /// <summary><c>sha-256=:&lt;base64&gt;:</c>.</summary>
    public static string FormatSha256(byte[] digest) => $"{Sha256Key}=:{Convert.ToBase64String(digest)}:";

    /// <summary>The SHA-256 announced in <c>Repr-Digest</c>, or null when there is none (or it is malformed).</summary>
    public static byte[]? ReadSha256(HttpResponseMessage response)
    {
        if (!response.Headers.TryGetValues(Header, out var values) && !response.Content.Headers.TryGetValues(Header, out values))
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
                        var digest = Convert.FromBase64String(value[1..^1]);
                        return digest.Length == 32 ? digest : null;
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
}
