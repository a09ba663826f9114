using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Microsoft.AspNetCore.Authorization;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>The caller holds one of <see cref="AnyOf"/>; a signed link also must name the requested file (or its upload session).</summary>
internal sealed record ScopeRequirement(IReadOnlyList<string> AnyOf) : IAuthorizationRequirement
{
    public bool IsReadOnly => AnyOf is [Scopes.Read];

    /// <summary>"write", or "write' or 'delete", between the quotes of a refusal.</summary>
    public string Named => string.Join("' or '", AnyOf);
}

/// <summary>
/// Grants a <see cref="ScopeRequirement"/> to a key or link with that scope, and reads to a caller
/// that presented no credential at all when <c>Auth:AllowAnonymousRead</c> is on. Protocol-neutral:
/// it reads only the principal and, for signed links, the <c>path</c> route value, so REST actions
/// and gRPC methods authorized by the same policies get the same answer.
/// </summary>
internal sealed class ScopeAuthorizationHandler(IOptions<AuthOptions> options) : AuthorizationHandler<ScopeRequirement>
{
    /// <summary>Route value holding the file name in <c>api/files/{**path}</c>.</summary>
    public const string PathRouteValue = "path";

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
        // environment: a key or link that does not grant the request is 403, never anonymous.
        var isLink = user.HasClaim(c => c.Type == FileTransferClaims.Path);
        if (!requirement.AnyOf.Any(scope => user.HasClaim(FileTransferClaims.Scope, scope)))
        {
            context.Fail(new AuthorizationFailureReason(this, isLink
                ? $"The signed link does not grant '{requirement.Named}'."
                : $"The API key does not have the '{requirement.Named}' scope."));
            return;
        }

        // A link names one file: it grants only a request whose route carries that exact name, or
        // one to an upload session (api/uploads/{uploadId}), where the core lets a link use only
        // the sessions it created. Requests with neither (the listing, gRPC calls) are never
        // granted by a link.
        if (isLink && !IsUploadSession(context.Resource) && RequestedPath(context.Resource) != user.FindFirst(FileTransferClaims.Path)!.Value)
        {
            context.Fail(new AuthorizationFailureReason(this, "The signed link is for another file."));
            return;
        }

        context.Succeed(requirement);
    }

    private static string? RequestedPath(object? resource) =>
        resource is HttpContext http ? http.GetRouteValue(PathRouteValue) as string : null;

    private static bool IsUploadSession(object? resource) =>
        resource is HttpContext http && http.GetRouteValue(Routes.UploadIdRouteValue) is string;

    // Only an HttpContext can prove that nothing was presented; any other resource is treated as
    // if a credential had been refused. The authentication handler's own rule, read from the request
    // (authenticating it again would cost a second pass through the authentication service).
    private static bool PresentedNoCredential(object? resource) =>
        resource is HttpContext http && !FileTransferAuthenticationHandler.PresentsCredential(http.Request);
}
