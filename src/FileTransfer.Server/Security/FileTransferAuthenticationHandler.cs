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
/// <c>X-Api-Key</c>) or a signed link (<c>?sig=</c>). Answers 401 with a Bearer challenge and
/// 403 as problem+json.
/// </summary>
internal sealed class FileTransferAuthenticationHandler(
    IOptionsMonitor<AuthenticationSchemeOptions> options,
    ILoggerFactory loggerFactory,
    UrlEncoder encoder,
    ApiKeyStore keys,
    SignedLinkSigner signer)
    : AuthenticationHandler<AuthenticationSchemeOptions>(options, loggerFactory, encoder)
{
    public const string SchemeName = "FileTransfer";
    public const string ApiKeyHeader = "X-Api-Key";

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
        IsBearer(request.Headers.Authorization.ToString())
        || request.Headers[ApiKeyHeader].Count > 0
        || request.Query[SignedLink.QueryParameter].Count > 0;

    protected override Task<AuthenticateResult> HandleAuthenticateAsync()
    {
        var bearer = BearerToken(Request);
        var headerKey = Request.Headers[ApiKeyHeader];
        if (headerKey.Count > 1 || (bearer is not null && headerKey.Count == 1 && headerKey[0] != bearer))
        {
            return Task.FromResult(AuthenticateResult.Fail("Send one API key, in one header."));
        }

        var key = bearer ?? headerKey.FirstOrDefault();
        if (key is not null)
        {
            // A valid key's result is built once per key (ApiKeyStore): nothing is allocated for it here.
            return keys.Find(key) ?? Task.FromResult(AuthenticateResult.Fail("The API key is not valid."));
        }

        var token = Request.Query[SignedLink.QueryParameter];
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

        return Task.FromResult(AuthenticateResult.Success(new AuthenticationTicket(new ClaimsPrincipal(LinkIdentity(link, token[0]!)), SchemeName)));
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

    private const string BearerPrefix = "Bearer ";

    // RFC 9110 11.1: the scheme name is case-insensitive.
    private static bool IsBearer(string authorization) => authorization.StartsWith(BearerPrefix, StringComparison.OrdinalIgnoreCase);

    private static string? BearerToken(HttpRequest request)
    {
        var header = request.Headers.Authorization.ToString();
        return IsBearer(header) ? header[BearerPrefix.Length..].Trim() : null;
    }

    private static ClaimsIdentity LinkIdentity(SignedLink link, string token)
    {
        var identity = new ClaimsIdentity("SignedLink", ClaimTypes.Name, ClaimTypes.Role);
        identity.AddClaim(new Claim(ClaimTypes.Name, "link"));
        identity.AddClaim(new Claim(FileTransferClaims.LinkId, Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(token)))[..24]));
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

        return identity;
    }
}
