using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Microsoft.AspNetCore.Authorization;

namespace FileTransfer.Server.Security;

/// <summary>
/// The one rule that protects the files, for REST and gRPC alike: an endpoint that declares an
/// <see cref="OperationAttribute"/> requires one of the scopes the core's table gives that operation. An
/// endpoint that serves files (under <c>api/files</c>, or a FileService method) and declares none
/// fails closed: it requires every scope, so that an action or RPC added without a declaration is
/// never cheaper than a declared one.
/// </summary>
internal static class OperationScopeConvention
{
    public static TBuilder RequireOperationScopes<TBuilder>(this TBuilder builder)
        where TBuilder : IEndpointConventionBuilder
    {
        // Last, once the endpoint's own metadata (its handler's attributes) is all there.
        builder.Finally(endpoint =>
        {
            // One policy per declared operation, granted by any of its scopes; every scope, each its
            // own policy, for an undeclared endpoint that serves files.
            var declared = endpoint.Metadata.OfType<OperationAttribute>().LastOrDefault();
            var policies = declared is not null ? [OperationScopes.PolicyFor(declared.Operation)]
                : endpoint is RouteEndpointBuilder route && Routes.ServesFiles(route.RoutePattern.RawText) ? Scopes.All
                : [];
            foreach (var policy in policies)
            {
                endpoint.Metadata.Add(new AuthorizeAttribute(policy));
            }
        });
        return builder;
    }
}
