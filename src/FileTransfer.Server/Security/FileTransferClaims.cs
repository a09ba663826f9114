namespace FileTransfer.Server.Security;

/// <summary>
/// Claims an authenticated caller carries. Authentication (API keys, signed links) sets them;
/// the storage adapters read the upload limits from them, so that a signed write link can cap
/// the size and fix the SHA-256 of what it lets a client store.
/// </summary>
internal static class FileTransferClaims
{
    /// <summary>One claim per granted scope: "read", "write" or "delete".</summary>
    public const string Scope = "ft:scope";

    /// <summary>Tokens only: the token's subject (<c>sub</c>).</summary>
    public const string Subject = "ft:sub";

    /// <summary>API keys only: a short, non-secret id of the key (from its hash), for logs and rate limits.</summary>
    public const string KeyId = "ft:key_id";

    /// <summary>
    /// Signed links only: a short, non-secret id of the link (from the hash of its token), for the
    /// upload sessions it owns: only the same link (or a key with the delete scope) continues them.
    /// </summary>
    public const string LinkId = "ft:link_id";

    /// <summary>Signed links only: the one file name the link is valid for.</summary>
    public const string Path = "ft:path";

    /// <summary>
    /// Signed links only: when the link expires (Unix seconds). What the request leads to, such as a
    /// presigned URL of the store, must not outlive it.
    /// </summary>
    public const string ExpiresAt = "ft:expires_at";

    /// <summary>Signed write links only: largest number of bytes the upload may store.</summary>
    public const string MaxUploadBytes = "ft:max_upload_bytes";

    /// <summary>Signed write links only: SHA-256 (lowercase hex) the uploaded bytes must have.</summary>
    public const string UploadSha256 = "ft:upload_sha256";
}
