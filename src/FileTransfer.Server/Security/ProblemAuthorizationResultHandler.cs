using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Authorization.Policy;

namespace FileTransfer.Server.Security;

/// <summary>
/// Passes the reason a policy failed ("the key does not have the 'write' scope") on to the 403
/// problem, which the framework's default handler would drop.
/// </summary>
internal sealed class ProblemAuthorizationResultHandler : IAuthorizationMiddlewareResultHandler
{
    private readonly AuthorizationMiddlewareResultHandler _default = new();

    public Task HandleAsync(RequestDelegate next, HttpContext context, AuthorizationPolicy policy, PolicyAuthorizationResult authorizeResult)
    {
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
