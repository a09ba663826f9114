using System.Globalization;
using System.Security.Claims;
using System.Security.Cryptography;
using System.Text;
using System.Text.Encodings.Web;
using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>
/// The one authentication scheme: an API key (<c>Authorization: Bearer</c>, RFC 6750 2.1, or
/// <c>X-Api-Key</c>), a token from the OpenID Connect provider (<c>Authorization: Bearer eyJ…</c>,
/// checked by the JwtBearer scheme), or a signed link (<c>?sig=</c>, or the <c>sig</c> metadata of a
/// gRPC call). Each becomes a principal carrying the core's <see cref="Caller"/>. Answers 401 with a
/// Bearer challenge and 403 as problem+json. A known key is usually authenticated before this
/// scheme runs (<see cref="KnownKeyAuthentication"/>); the answer is the same either way.
/// </summary>
internal sealed class FileTransferAuthenticationHandler(
    IOptionsMonitor<AuthenticationSchemeOptions> options,
    ILoggerFactory loggerFactory,
    UrlEncoder encoder,
    ApiKeyStore keys,
    SignedLinkSigner signer,
    IOptions<AuthOptions> auth)
    : AuthenticationHandler<AuthenticationSchemeOptions>(options, loggerFactory, encoder)
{
    public const string SchemeName = "FileTransfer";
    public const string ApiKeyHeader = "X-Api-Key";

    /// <summary>The gRPC metadata key that carries a signed link's token (REST's <c>?sig=</c>).</summary>
    public const string LinkMetadataKey = SignedLink.QueryParameter;

    // Immutable (no ticket, no properties): one instance serves every request without a credential.
    private static readonly Task<AuthenticateResult> NoCredential = Task.FromResult(AuthenticateResult.NoResult());

    /// <summary>
    /// Whether <paramref name="request"/> carries anything this scheme reads as a credential (a Bearer
    /// token, an <c>X-Api-Key</c> header, a <c>sig</c> parameter), valid or not. Authentication
    /// answers "no result" exactly when it does not; anonymous reads ask here instead of
    /// authenticating the request a second time.
    /// </summary>
    /// <remarks>
    /// Runs for every request (the pipeline authenticates only those that present one), so it
    /// reads the headers without copying the token out of them.
    /// </remarks>
    public static bool PresentsCredential(HttpRequest request) =>
        BearerCredentials.TryGet(request.Headers.Authorization.ToString(), out _)
        || request.Headers[ApiKeyHeader].Count > 0
        || LinkTokens(request).Count > 0;

    protected override Task<AuthenticateResult> HandleAuthenticateAsync()
    {
        var hasBearer = BearerCredentials.TryGet(Request.Headers.Authorization.ToString(), out var bearer);
        var headerKey = Request.Headers[ApiKeyHeader];
        if (headerKey.Count > 1 || (hasBearer && headerKey.Count == 1 && !bearer.SequenceEqual(headerKey[0])))
        {
            return Task.FromResult(AuthenticateResult.Fail("Send one API key, in one header."));
        }

        if (hasBearer && BearerCredentials.IsJwtShaped(bearer))
        {
            return AuthenticateTokenAsync();
        }

        if (hasBearer || headerKey.Count == 1)
        {
            // A valid key's result is built once per key (ApiKeyStore): nothing is allocated for it here.
            return keys.Lookup(hasBearer ? bearer : headerKey[0])?.Result ?? Task.FromResult(AuthenticateResult.Fail("The API key is not valid."));
        }

        var token = LinkTokens(Request);
        if (token.Count == 0)
        {
            return NoCredential;
        }

        if (token.Count > 1)
        {
            return Task.FromResult(AuthenticateResult.Fail("Send one signed link."));
        }

        if (!signer.TryValidate(token[0]!, out var link, out var error))
        {
            return Task.FromResult(AuthenticateResult.Fail(error));
        }

        return Task.FromResult(AuthenticateResult.Success(new AuthenticationTicket(LinkPrincipal(link, token[0]!), SchemeName)));
    }

    // A signed link: ?sig= on any request; on a gRPC call, which has no query, the sig metadata.
    private static Microsoft.Extensions.Primitives.StringValues LinkTokens(HttpRequest request) =>
        request.Query[SignedLink.QueryParameter] is { Count: > 0 } query ? query
        : GrpcStatusResponse.IsGrpc(request.HttpContext) ? request.Headers[LinkMetadataKey]
        : default;

    // A token: the JwtBearer scheme validates it (signature, issuer, audience, lifetime); the caller
    // is built from its claims. A server without Auth:Jwt takes no tokens.
    private async Task<AuthenticateResult> AuthenticateTokenAsync()
    {
        var jwt = auth.Value.Jwt;
        if (!jwt.IsEnabled)
        {
            return AuthenticateResult.Fail("This server accepts no tokens from an identity provider (Auth:Jwt:Authority is not set); send an API key.");
        }

        var result = await Context.AuthenticateAsync(JwtCallers.SchemeName);
        if (!result.Succeeded || result.Principal is null)
        {
            return AuthenticateResult.Fail(JwtCallers.Refusal(result.Failure));
        }

        return AuthenticateResult.Success(new AuthenticationTicket(JwtCallers.PrincipalOf(result.Principal, jwt), SchemeName));
    }

    protected override async Task HandleChallengeAsync(AuthenticationProperties properties)
    {
        var result = await HandleAuthenticateOnceSafeAsync();

        // RFC 6750 3 and 3.1: a Bearer challenge, with error="invalid_token" when credentials were refused.
        Response.Headers.WWWAuthenticate = result.Failure is null
            ? $"Bearer realm=\"{SchemeName}\""
            : $"Bearer realm=\"{SchemeName}\", error=\"invalid_token\"";
        await SecurityProblems.WriteAsync(
            Context,
            ErrorReason.Unauthenticated,
            result.Failure?.Message ?? (GrpcStatusResponse.IsGrpc(Context)
                ? "Send an API key in the call metadata as 'authorization: Bearer <key>' or 'x-api-key: <key>'."
                : "Send an API key as 'Authorization: Bearer <key>' or 'X-Api-Key: <key>', or use a signed link (?sig=...)."));
    }

    protected override Task HandleForbiddenAsync(AuthenticationProperties properties) =>
        SecurityProblems.WriteAsync(
            Context,
            ErrorReason.PermissionDenied,
            properties.Items.TryGetValue(SecurityProblems.DetailItem, out var detail) && detail is not null
                ? detail
                : "The credentials do not allow this request.");

    private static CallerPrincipal LinkPrincipal(SignedLink link, string token)
    {
        var linkId = Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(token)))[..24];
        var identity = new ClaimsIdentity("SignedLink", ClaimTypes.Name, ClaimTypes.Role);
        identity.AddClaim(new Claim(ClaimTypes.Name, "link"));
        identity.AddClaim(new Claim(FileTransferClaims.LinkId, linkId));
        identity.AddClaim(new Claim(FileTransferClaims.Scope, link.Access));
        identity.AddClaim(new Claim(FileTransferClaims.Path, link.Path));
        identity.AddClaim(new Claim(FileTransferClaims.ExpiresAt, link.ExpiresAt.ToString(CultureInfo.InvariantCulture), ClaimValueTypes.Integer64));
        if (link.MaxBytes is { } maxBytes)
        {
            identity.AddClaim(new Claim(FileTransferClaims.MaxUploadBytes, maxBytes.ToString(CultureInfo.InvariantCulture), ClaimValueTypes.Integer64));
        }

        if (link.Sha256 is { } sha256)
        {
            identity.AddClaim(new Claim(FileTransferClaims.UploadSha256, sha256));
        }

        var grant = new LinkGrant(link.Access, link.Path, link.Expires, link.MaxBytes, link.Sha256 is { } hex ? Convert.FromHexString(hex) : null);
        return new CallerPrincipal(identity, Caller.ForLink(linkId, grant));
    }
}
