using System.Security.Claims;
using System.Text.Json;
using FileTransfer.Core;
using Microsoft.AspNetCore.Authentication.JwtBearer;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace FileTransfer.Server.Security;

/// <summary>
/// Tokens from the OpenID Connect provider (<c>Auth:Jwt</c>): the JwtBearer scheme checks signature,
/// issuer, audience and lifetime against the provider's discovery document and keys; this turns a
/// valid token into a <see cref="Caller"/> (scopes from <c>scope</c>, folders from the paths claim or
/// <c>Auth:Jwt:DefaultPaths</c>) and a refused one into a message a client can act on.
/// </summary>
internal static class JwtCallers
{
    /// <summary>The scheme name of the JwtBearer handler this server's own scheme hands tokens to.</summary>
    public const string SchemeName = "Jwt";

    /// <summary>Stands for the token's subject in <c>Auth:Jwt:DefaultPaths</c>.</summary>
    public const string SubjectPlaceholder = "{sub}";

    /// <summary>Clock skew allowed on <c>exp</c> and <c>nbf</c>: providers and servers keep time by NTP.</summary>
    public static readonly TimeSpan ClockSkew = TimeSpan.FromSeconds(30);

    // Up to 3 s: the provider's key document may take that long on a loaded host; a token whose kid
    // the provider does not publish costs that wait once per RefreshInterval-spaced fetch, under the rate limit.
    private const int KeyWaitSteps = 60;
    private static readonly TimeSpan KeyWaitStep = TimeSpan.FromMilliseconds(50);

    public static void Configure(JwtBearerOptions bearer, JwtOptions options)
    {
        bearer.Authority = options.Authority;
        bearer.Audience = options.Audience;
        bearer.RequireHttpsMetadata = options.RequireHttpsMetadata;
        bearer.MapInboundClaims = false; // claims keep their JWT names: sub, scope, paths
        bearer.SaveToken = false;

        // A signing key the cached document does not know makes the handler fetch it again (key
        // rotation at the provider), at most this often.
        bearer.RefreshInterval = TimeSpan.FromSeconds(1);
        bearer.AutomaticRefreshInterval = TimeSpan.FromMinutes(10);
        var parameters = bearer.TokenValidationParameters;
        parameters.ValidateIssuer = true;
        parameters.ValidateAudience = true;
        parameters.ValidateLifetime = true;
        parameters.RequireExpirationTime = true;
        parameters.RequireSignedTokens = true;
        parameters.ValidateIssuerSigningKey = true;
        parameters.ClockSkew = ClockSkew;
        bearer.Events = new JwtBearerEvents { OnAuthenticationFailed = RetryWithNewKeysAsync };
    }

    // A signing key the cached keys do not know: the provider has rotated its keys. The handler has
    // asked for fresh ones (at most once a RefreshInterval); the token is checked once more against
    // them, so that the first request with a new key is not refused.
    private static async Task RetryWithNewKeysAsync(AuthenticationFailedContext context)
    {
        if (context.Exception is not SecurityTokenSignatureKeyNotFoundException || context.Options.ConfigurationManager is not { } keys
            || !BearerCredentials.TryGet(context.Request.Headers.Authorization.ToString(), out var bearer))
        {
            return;
        }

        var token = bearer.ToString();

        // The fresh keys arrive in the background: wait for them a little (bounded), never for a kid
        // the provider does not publish.
        var kid = new JsonWebToken(token).Kid;
        var configuration = await keys.GetConfigurationAsync(context.HttpContext.RequestAborted);
        for (var wait = 0; wait < KeyWaitSteps && !configuration.SigningKeys.Any(key => key.KeyId == kid); wait++)
        {
            await Task.Delay(KeyWaitStep, context.HttpContext.RequestAborted);
            keys.RequestRefresh(); // a request the RefreshInterval held back is asked again
            configuration = await keys.GetConfigurationAsync(context.HttpContext.RequestAborted);
        }
        var parameters = context.Options.TokenValidationParameters.Clone();
        parameters.ValidIssuer = configuration.Issuer;
        parameters.IssuerSigningKeys = configuration.SigningKeys;
        var result = await new JsonWebTokenHandler { MapInboundClaims = false }.ValidateTokenAsync(token, parameters);
        if (result.IsValid)
        {
            context.Principal = new ClaimsPrincipal(result.ClaimsIdentity);
            context.Success();
        }
    }

    /// <summary>The caller a validated token stands for: <c>user:&lt;sub&gt;</c> with its scopes and folders.</summary>
    public static CallerPrincipal PrincipalOf(ClaimsPrincipal token, JwtOptions options)
    {
        var subject = token.FindFirst("sub")?.Value ?? token.FindFirst("client_id")?.Value ?? "";
        var scopes = token.FindAll("scope").SelectMany(c => c.Value.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            .Where(s => s.StartsWith(options.ScopePrefix, StringComparison.Ordinal))
            .Select(s => s[options.ScopePrefix.Length..])
            .Where(Scopes.All.Contains)
            .Distinct(StringComparer.Ordinal)
            .ToList();
        var caller = Caller.ForToken(subject, scopes, FoldersOf(token, options, subject));
        var identity = new ClaimsIdentity(
            [
                new Claim(ClaimTypes.Name, caller.Id),
                new Claim(FileTransferClaims.Subject, subject),
                .. scopes.Select(scope => new Claim(FileTransferClaims.Scope, scope)),
            ],
            "Jwt",
            ClaimTypes.Name,
            ClaimTypes.Role);
        return new CallerPrincipal(identity, caller);
    }

    /// <summary>Why a token was refused, in words a client can act on (never the library's IDX text).</summary>
    public static string Refusal(Exception? failure) => failure switch
    {
        SecurityTokenExpiredException => "The token has expired.",
        SecurityTokenNotYetValidException => "The token is not valid yet.",
        SecurityTokenInvalidIssuerException => "The token was issued by another issuer.",
        SecurityTokenInvalidAudienceException => "The token is meant for another audience.",
        SecurityTokenSignatureKeyNotFoundException or SecurityTokenInvalidSignatureException => "The token's signature does not verify.",
        _ => "The token is not valid.",
    };

    // The paths claim (a JSON array arrives as one claim per element; a string is split on spaces),
    // or the defaults with {sub}: only for a subject that is one valid name segment, so that no
    // subject ("a/b", "..") can reach into another's folder. A folder that is no valid name is dropped.
    private static IReadOnlyList<string> FoldersOf(ClaimsPrincipal token, JwtOptions options, string subject)
    {
        var claimed = token.FindAll(options.PathsClaim).SelectMany(c => Split(c.Value)).ToList();
        var paths = claimed.Count > 0 || token.HasClaim(c => c.Type == options.PathsClaim)
            ? claimed
            : [.. options.DefaultPaths.Where(p => !p.Contains(SubjectPlaceholder, StringComparison.Ordinal) || IsSegment(subject))
                .Select(p => p.Replace(SubjectPlaceholder, subject, StringComparison.Ordinal))];
        return [.. paths.Select(Grants.Normalize).OfType<string>()];
    }

    private static bool IsSegment(string subject) => !subject.Contains('/') && FileNames.IsValid(subject);

    private static IEnumerable<string> Split(string value)
    {
        if (value.StartsWith('['))
        {
            try
            {
                return JsonSerializer.Deserialize(value, SecurityJson.Default.StringArray) ?? [];
            }
            catch (JsonException)
            {
                return [];
            }
        }

        return value.Split(' ', StringSplitOptions.RemoveEmptyEntries);
    }
}
