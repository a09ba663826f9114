using System.Buffers.Text;
using System.Security.Cryptography;

namespace FileTransfer.Core;

/// <summary>
/// Upload session ids: 128 bits from the OS's cryptographic generator, base64url without padding
/// (22 characters). Whoever holds one can address the session, so it must not be guessable
/// (draft-ietf-httpbis-resumable-upload, Security Considerations); it is also safe as a file or
/// object name, and anything else is refused before a store sees it.
/// </summary>
public static class UploadSessionIds
{
    /// <summary>Characters of an id.</summary>
    public const int Length = 22;

    public static string New() => Base64Url.EncodeToString(RandomNumberGenerator.GetBytes(16));

    /// <summary>True when <paramref name="id"/> has the form of an id (never a path, never empty).</summary>
    public static bool IsWellFormed(string? id) =>
        id is { Length: Length } && id.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_');
}
