using Microsoft.AspNetCore.Http.Features.Authentication;
using Microsoft.AspNetCore.Authentication;

namespace FileTransfer.Server.Security;

/// <summary>
/// The path of a request that presents a configured API key, and nothing that contradicts it: the
/// key's shared principal and result are set as the request's authentication features, without the
/// authentication service, its handler or any per-request object. Everything else (no credential, a
/// token, a signed link, an unknown key, two keys) goes on to the authentication scheme as before,
/// which answers it exactly as it would have answered this one.
/// </summary>
internal sealed class KnownKeyAuthentication(RequestDelegate next, ApiKeyStore keys)
{
    public Task InvokeAsync(HttpContext context)
    {
        if (KnownKey(context.Request) is { } entry)
        {
            context.Features.Set<IHttpAuthenticationFeature>(entry);
            context.Features.Set<IAuthenticateResultFeature>(entry);
        }

        return next(context);
    }

    /// <summary>True once a request was authenticated here (the scheme need not run).</summary>
    public static bool IsAuthenticated(HttpContext context) => context.Features.Get<IAuthenticateResultFeature>() is ApiKeyEntry;

    // The handler's rule for keys: one Bearer (not shaped like a token) or one X-Api-Key, or both the same.
    private ApiKeyEntry? KnownKey(HttpRequest request)
    {
        var headerKey = request.Headers[FileTransferAuthenticationHandler.ApiKeyHeader];
        if (headerKey.Count > 1)
        {
            return null;
        }

        var hasBearer = BearerCredentials.TryGet(request.Headers.Authorization.ToString(), out var bearer);
        if (hasBearer && (BearerCredentials.IsJwtShaped(bearer) || (headerKey.Count == 1 && !bearer.SequenceEqual(headerKey[0]))))
        {
            return null;
        }

        return hasBearer ? keys.Lookup(bearer) : headerKey.Count == 1 ? keys.Lookup(headerKey[0]) : null;
    }
}
