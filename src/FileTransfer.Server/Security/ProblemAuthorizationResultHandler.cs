using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Authorization.Policy;

namespace FileTransfer.Server.Security;

/// <summary>
/// Passes the reason a policy failed ("the key does not have the 'write' scope") on to the 403
/// problem, which the framework's default handler would drop; and remembers a known key's grant of
/// an endpoint's policy (<see cref="KnownKeyGrants.RememberAt"/>), which only this handler can, since
/// only the authorization middleware calls it, with the endpoint's own policy.
/// </summary>
internal sealed class ProblemAuthorizationResultHandler(IServiceProvider services) : IAuthorizationMiddlewareResultHandler
{
    private readonly AuthorizationMiddlewareResultHandler _default = new();
    private readonly Lazy<KnownKeyGrants?> _grants = new(() => SharedAuthorization.GrantsOf(services));

    public Task HandleAsync(RequestDelegate next, HttpContext context, AuthorizationPolicy policy, PolicyAuthorizationResult authorizeResult)
    {
        if (authorizeResult.Succeeded && context.GetEndpoint() is { } endpoint && SharedAuthorization.KeyOf(context) is { } key)
        {
            _grants.Value?.RememberAt(key, policy, endpoint);
        }

        var reasons = authorizeResult.AuthorizationFailure?.FailureReasons.Select(r => r.Message).Distinct().ToList();
        if (!authorizeResult.Forbidden || reasons is null || reasons.Count == 0)
        {
            return _default.HandleAsync(next, context, policy, authorizeResult);
        }

        var properties = new AuthenticationProperties();
        properties.Items[SecurityProblems.DetailItem] = string.Join(" ", reasons);
        return context.ForbidAsync(properties);
    }
}
