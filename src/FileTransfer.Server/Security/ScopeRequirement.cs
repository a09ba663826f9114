using FileTransfer.Core;
using Microsoft.AspNetCore.Authorization;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>The caller holds one of <see cref="AnyOf"/> (which names, the core's policy decides).</summary>
internal sealed record ScopeRequirement(IReadOnlyList<string> AnyOf) : IAuthorizationRequirement
{
    public bool IsReadOnly => AnyOf is [Scopes.Read];

    /// <summary>"write", or "write' or 'delete", between the quotes of a refusal.</summary>
    public string Named => string.Join("' or '", AnyOf);
}

/// <summary>
/// The edge's early answer, before the name is known: grants a <see cref="ScopeRequirement"/> to a
/// caller (key, token or link) that holds one of its scopes, and reads to a caller that presented
/// no credential at all when <c>Auth:AllowAnonymousRead</c> is on. It reads only the principal's
/// <see cref="Caller"/>, never a route value: which names the caller reaches (folders, a link's one
/// file) is decided by the core's <see cref="AccessPolicy"/> in every operation, for every protocol.
/// </summary>
internal sealed class ScopeAuthorizationHandler(IOptions<AuthOptions> options) : AuthorizationHandler<ScopeRequirement>
{
    protected override Task HandleRequirementAsync(AuthorizationHandlerContext context, ScopeRequirement requirement)
    {
        Decide(context, requirement);
        return Task.CompletedTask;
    }

    private void Decide(AuthorizationHandlerContext context, ScopeRequirement requirement)
    {
        var user = context.User;
        if (user.Identity?.IsAuthenticated != true)
        {
            // Anonymous reads are for callers that sent nothing. A refused key or link stays
            // unauthenticated here and gets 401: a silent downgrade would hide a misconfigured client.
            if (requirement.IsReadOnly && options.Value.AllowAnonymousRead && PresentedNoCredential(context.Resource))
            {
                context.Succeed(requirement);
            }

            return;
        }

        // A caller who presented a valid credential is judged by that credential alone, in every
        // environment: a key, token or link that does not grant the request is 403, never anonymous.
        var caller = Callers.Of(user);
        if (caller is null || !requirement.AnyOf.Any(caller.Holds))
        {
            context.Fail(new AuthorizationFailureReason(this, caller?.Kind switch
            {
                CallerKind.Link => $"The signed link does not grant '{requirement.Named}'.",
                CallerKind.Token => $"The token does not have the '{requirement.Named}' scope.",
                _ => $"The API key does not have the '{requirement.Named}' scope.",
            }));
            return;
        }

        context.Succeed(requirement);
    }

    // Only an HttpContext can prove that nothing was presented; any other resource is treated as
    // if a credential had been refused. The authentication handler's own rule, read from the request
    // (authenticating it again would cost a second pass through the authentication service).
    private static bool PresentedNoCredential(object? resource) =>
        resource is HttpContext http && !FileTransferAuthenticationHandler.PresentsCredential(http.Request);
}
