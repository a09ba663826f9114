using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>The caller holds <see cref="Scope"/>; a signed link also must name the requested file.</summary>
internal sealed record ScopeRequirement(string Scope) : IAuthorizationRequirement;

/// <summary>
/// Grants a <see cref="ScopeRequirement"/> to a key or link with that scope, and reads to anyone
/// when <c>Auth:AllowAnonymousRead</c> is on. A signed link is valid for its one file only.
/// </summary>
internal sealed class ScopeAuthorizationHandler(IOptions<AuthOptions> options) : AuthorizationHandler<ScopeRequirement>
{
    /// <summary>Route value holding the file name in <c>api/files/{**path}</c>.</summary>
    public const string PathRouteValue = "path";

    protected override async Task HandleRequirementAsync(AuthorizationHandlerContext context, ScopeRequirement requirement)
    {
        if (requirement.Scope == Scopes.Read && options.Value.AllowAnonymousRead && !await CredentialsWereRefusedAsync(context.Resource))
        {
            context.Succeed(requirement);
            return;
        }

        var user = context.User;
        if (user.HasClaim(FileTransferClaims.Scope, requirement.Scope))
        {
            var linkPath = user.FindFirst(FileTransferClaims.Path)?.Value;
            if (linkPath is null || linkPath == RequestedPath(context.Resource))
            {
                context.Succeed(requirement);
            }
            else
            {
                context.Fail(new AuthorizationFailureReason(this, "The signed link is for another file."));
            }

            return;
        }

        context.Fail(new AuthorizationFailureReason(this, user.HasClaim(c => c.Type == FileTransferClaims.Path)
            ? $"The signed link does not grant '{requirement.Scope}'."
            : $"The API key does not have the '{requirement.Scope}' scope."));
    }

    private static string? RequestedPath(object? resource) =>
        resource is HttpContext http ? http.GetRouteValue(PathRouteValue) as string : null;

    // A client that sent a wrong key is told so (401), even where anonymous reads would pass:
    // a silent downgrade would hide a misconfigured client.
    private static async Task<bool> CredentialsWereRefusedAsync(object? resource) =>
        resource is not HttpContext http || (await http.AuthenticateAsync()).Failure is not null;
}
