using Microsoft.AspNetCore.Authorization;

namespace FileTransfer.Server.Security;

/// <summary>
/// ASP.NET Core's authorization middleware, in front of which a configured key that was granted an
/// endpoint's policy before (<see cref="KnownKeyGrants.IsGrantedAt"/>) goes on at once. Everything else
/// (other callers, endpoints not yet granted, refusals, anonymous endpoints) is the framework's
/// middleware, built here over the same next step.
/// </summary>
/// <remarks>
/// A remembered grant already skipped the authorization service; the middleware around it still
/// looked the endpoint's policy up, resolved the evaluator and the result handler from the request's
/// services, read an AppContext switch and ran an async state machine: about 3 % of a 1 KiB GET's CPU
/// (docs/performance-notes.md). What the framework's middleware leaves behind for the endpoint
/// middleware, the mark that authorization ran for this endpoint, is left here too, and the grant
/// still counts in <c>aspnetcore.authorization.attempts</c>.
/// </remarks>
internal sealed class KnownKeyAuthorization
{
    // The key and value of AuthorizationMiddleware's mark (src/Security/Authorization/Policy/src/AuthorizationMiddleware.cs):
    // the endpoint middleware refuses to run an endpoint with authorization metadata without the key.
    internal const string InvokedWithEndpointKey = "__AuthorizationMiddlewareWithEndpointInvoked";
    private static readonly object InvokedWithEndpoint = new();

    private readonly RequestDelegate _next;
    private readonly RequestDelegate _framework;
    private readonly KnownKeyGrants? _grants;

    public KnownKeyAuthorization(RequestDelegate next, IAuthorizationPolicyProvider policies, IServiceProvider services, ILogger<AuthorizationMiddleware> logger)
    {
        _next = next;
        _framework = new AuthorizationMiddleware(next, policies, services, logger).Invoke;
        _grants = SharedAuthorization.GrantsOf(services);
    }

    public Task InvokeAsync(HttpContext context)
    {
        if (_grants is not null
            && context.GetEndpoint() is { } endpoint
            && SharedAuthorization.KeyOf(context) is { } key
            && _grants.IsGrantedAt(key, endpoint))
        {
            context.Items[InvokedWithEndpointKey] = InvokedWithEndpoint;
            return _next(context);
        }

        return _framework(context);
    }
}
