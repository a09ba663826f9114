using FileTransfer.Core;

namespace FileTransfer.Server.Security;

/// <summary>
/// Tokens from an OpenID Connect provider (<c>Auth:Jwt</c>): signed JWTs whose issuer, audience,
/// lifetime and signature are checked against the provider's discovery document and signing keys.
/// Scopes come from the token's <c>scope</c> claim, folders from <see cref="PathsClaim"/>.
/// </summary>
public sealed class JwtOptions
{
    /// <summary>The provider's issuer URL; its discovery document is <c>{Authority}/.well-known/openid-configuration</c>. Unset: tokens are not accepted.</summary>
    public string? Authority { get; set; }

    /// <summary>The audience a token must name (<c>aud</c>).</summary>
    public string? Audience { get; set; }

    /// <summary>Whether the discovery document and keys must come over HTTPS (default true; false only for a loopback test issuer).</summary>
    public bool RequireHttpsMetadata { get; set; } = true;

    /// <summary>
    /// A prefix the provider puts before each scope (<c>files:</c> for <c>files:read</c>); scopes
    /// without it are ignored. Empty: the scopes are <c>read</c>, <c>write</c>, <c>delete</c> as they are.
    /// </summary>
    public string ScopePrefix { get; set; } = "";

    /// <summary>The claim that lists the token's folders: a space-separated string or a JSON array (default <c>paths</c>).</summary>
    public string PathsClaim { get; set; } = "paths";

    /// <summary>
    /// Folders of a token without <see cref="PathsClaim"/>; <c>{sub}</c> stands for the token's subject
    /// (<c>users/{sub}/</c>). With neither, the token reaches nothing.
    /// </summary>
    public List<string> DefaultPaths { get; set; } = [];

    internal bool IsEnabled => !string.IsNullOrWhiteSpace(Authority);

    internal IEnumerable<string> Problems()
    {
        if (!IsEnabled)
        {
            yield break;
        }

        if (!Uri.TryCreate(Authority, UriKind.Absolute, out var authority) || authority.Scheme is not ("https" or "http"))
        {
            yield return "Auth:Jwt:Authority must be an absolute http(s) URL.";
        }
        else if (RequireHttpsMetadata && authority.Scheme != "https")
        {
            yield return "Auth:Jwt:Authority must be https, unless Auth:Jwt:RequireHttpsMetadata is false (a loopback test issuer only).";
        }

        if (string.IsNullOrWhiteSpace(Audience))
        {
            yield return "Auth:Jwt:Audience must be set: a token for another service must not be accepted here.";
        }

        if (string.IsNullOrWhiteSpace(PathsClaim))
        {
            yield return "Auth:Jwt:PathsClaim must name a claim.";
        }

        for (var i = 0; i < DefaultPaths.Count; i++)
        {
            if (Grants.Normalize(DefaultPaths[i].Replace(JwtCallers.SubjectPlaceholder, "subject", StringComparison.Ordinal)) is null)
            {
                yield return $"Auth:Jwt:DefaultPaths:{i} ('{DefaultPaths[i]}') is not a folder a client could name.";
            }
        }
    }
}
