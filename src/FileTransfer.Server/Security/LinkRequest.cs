using System.ComponentModel.DataAnnotations;
using FileTransfer.Core;

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

/// <summary>
/// The checks the attributes of <see cref="LinkRequest"/> declare (and the OpenAPI schema shows), made
/// on the request as read: each refused field with its message, as <c>errors</c> of the 400 problem.
/// </summary>
internal static class LinkRequestRules
{
    public static Dictionary<string, string[]> Refusals(LinkRequest request)
    {
        var errors = new Dictionary<string, string[]>(StringComparer.Ordinal);
        if (string.IsNullOrEmpty(request.Path))
        {
            errors[nameof(LinkRequest.Path)] = ["The Path field is required."];
        }

        if (string.IsNullOrEmpty(request.Access))
        {
            errors[nameof(LinkRequest.Access)] = ["The Access field is required."];
        }
        else if (request.Access is not (Scopes.Read or Scopes.Write))
        {
            errors[nameof(LinkRequest.Access)] = ["Access must be 'read' or 'write'."];
        }

        if (request.ExpiresInSeconds < 1)
        {
            errors[nameof(LinkRequest.ExpiresInSeconds)] = [$"The field ExpiresInSeconds must be between 1 and {int.MaxValue}."];
        }

        if (request.MaxBytes < 0)
        {
            errors[nameof(LinkRequest.MaxBytes)] = [$"The field MaxBytes must be between 0 and {long.MaxValue}."];
        }

        if (request.Sha256 is { } sha256 && (sha256.Length != 64 || !sha256.All(c => char.IsAsciiDigit(c) || c is >= 'a' and <= 'f')))
        {
            errors[nameof(LinkRequest.Sha256)] = ["Sha256 must be 64 lowercase hex digits."];
        }

        return errors;
    }
}
