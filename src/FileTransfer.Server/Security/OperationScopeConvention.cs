using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Microsoft.AspNetCore.Authorization;

namespace FileTransfer.Server.Security;

/// <summary>
/// The one rule that protects the files, for REST and gRPC alike: an endpoint that declares an
/// <see cref="OperationAttribute"/> requires the scope the core's table gives that operation. An
/// endpoint that serves files (under <c>api/files</c>, or a FileService method) and declares none
/// fails closed: it requires every scope, so that an action or RPC added without a declaration is
/// never cheaper than a declared one.
/// </summary>
internal static class OperationScopeConvention
{
    public static TBuilder RequireOperationScopes<TBuilder>(this TBuilder builder)
        where TBuilder : IEndpointConventionBuilder
    {
        builder.Add(endpoint =>
        {
            var declared = endpoint.Metadata.OfType<OperationAttribute>().LastOrDefault();
            var scopes = declared is not null ? [OperationScopes.For(declared.Operation)]
                : endpoint is RouteEndpointBuilder route && Routes.ServesFiles(route.RoutePattern.RawText) ? Scopes.All
                : [];
            foreach (var scope in scopes)
            {
                endpoint.Metadata.Add(new AuthorizeAttribute(scope));
            }
        });
        return builder;
    }
}
