namespace FileTransfer.Server.Security;

/// <summary>
/// What an <c>Authorization: Bearer</c> credential is, read without copying it out of the header: a
/// JSON Web Token (JWS compact serialization, RFC 7515 7.1: three base64url parts, the first a JSON
/// header, so it starts with <c>eyJ</c>) or an API key. Keys of that shape are refused at startup,
/// so the two are told apart by shape alone, and a key never pays for token validation.
/// </summary>
internal static class BearerCredentials
{
    private const string BearerPrefix = "Bearer ";

    /// <summary>The credential after <c>Bearer </c> (RFC 9110 11.1: the scheme is case-insensitive), trimmed; false when the header is no Bearer.</summary>
    public static bool TryGet(string? authorization, out ReadOnlySpan<char> credential)
    {
        if (authorization is null || !authorization.StartsWith(BearerPrefix, StringComparison.OrdinalIgnoreCase))
        {
            credential = default;
            return false;
        }

        credential = authorization.AsSpan(BearerPrefix.Length).Trim();
        return true;
    }

    /// <summary>True for <c>eyJ…</c> with exactly two dots and only base64url characters (the signature part may be empty: an <c>alg: none</c> token, refused later).</summary>
    public static bool IsJwtShaped(ReadOnlySpan<char> credential)
    {
        if (!credential.StartsWith("eyJ", StringComparison.Ordinal))
        {
            return false;
        }

        var dots = 0;
        foreach (var c in credential)
        {
            if (c == '.')
            {
                dots++;
            }
            else if (!(char.IsAsciiLetterOrDigit(c) || c is '-' or '_'))
            {
                return false;
            }
        }

        return dots == 2;
    }
}
