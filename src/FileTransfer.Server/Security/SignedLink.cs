using System.Text.Json.Serialization;
using FileTransfer.Core;

namespace FileTransfer.Server.Security;

/// <summary>
/// What a signed link grants: one method class on one file until a moment, and for writes a size
/// cap and optionally the exact SHA-256 of the bytes. Short JSON names keep the URL short.
/// </summary>
/// <param name="Access"><see cref="Scopes.Read"/> or <see cref="Scopes.Write"/>.</param>
/// <param name="Path">The one file name (as the resolver accepts it) the link is valid for.</param>
/// <param name="ExpiresAt">Unix time in seconds after which the link is refused.</param>
/// <param name="MaxBytes">Writes: the largest body the upload may store.</param>
/// <param name="Sha256">Writes: lowercase hex SHA-256 the uploaded bytes must have, when fixed.</param>
internal sealed record SignedLink(
    [property: JsonPropertyName("a")] string Access,
    [property: JsonPropertyName("p")] string Path,
    [property: JsonPropertyName("e")] long ExpiresAt,
    [property: JsonPropertyName("n"), JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] long? MaxBytes = null,
    [property: JsonPropertyName("h"), JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] string? Sha256 = null)
{
    /// <summary>Query parameter that carries the token: <c>?sig=...</c>.</summary>
    public const string QueryParameter = "sig";

    [JsonIgnore]
    public DateTimeOffset Expires => DateTimeOffset.FromUnixTimeSeconds(ExpiresAt);
}
