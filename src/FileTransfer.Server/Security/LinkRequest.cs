using System.ComponentModel.DataAnnotations;

namespace FileTransfer.Server.Security;

/// <summary>A request for a signed link (<c>POST api/links</c>).</summary>
/// <param name="Path">File name relative to the storage root, '/' separated.</param>
/// <param name="Access"><c>read</c> (GET/HEAD) or <c>write</c> (PUT/POST of this one file).</param>
/// <param name="ExpiresInSeconds">Lifetime; default one hour, at most <c>Auth:MaxLinkLifetime</c>.</param>
/// <param name="MaxBytes">Write links: largest upload the link allows; default and ceiling <c>Storage:MaxFileSizeBytes</c>.</param>
/// <param name="Sha256">Write links: lowercase hex SHA-256 the uploaded bytes must have.</param>
public sealed record LinkRequest(
    [Required] string Path,
    [Required, RegularExpression("^(read|write)$", ErrorMessage = "Access must be 'read' or 'write'.")] string Access,
    [Range(1, int.MaxValue)] int? ExpiresInSeconds = null,
    [Range(0, long.MaxValue)] long? MaxBytes = null,
    [RegularExpression("^[0-9a-f]{64}$", ErrorMessage = "Sha256 must be 64 lowercase hex digits.")] string? Sha256 = null);

/// <summary>A signed link: <see cref="Url"/> works with curl alone until <see cref="ExpiresAt"/>.</summary>
/// <param name="Url">Absolute URL of the file with the token in its query string.</param>
/// <param name="Token">The token alone, for <c>?sig=</c>.</param>
/// <param name="Path">The file the link is valid for.</param>
/// <param name="Access"><c>read</c> or <c>write</c>.</param>
/// <param name="ExpiresAt">When the link stops working (UTC).</param>
/// <param name="MaxBytes">Write links: the size cap.</param>
/// <param name="Sha256">Write links: the required SHA-256, when fixed.</param>
public sealed record LinkResponse(string Url, string Token, string Path, string Access, DateTimeOffset ExpiresAt, long? MaxBytes, string? Sha256);
