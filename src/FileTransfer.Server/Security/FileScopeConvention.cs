using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Routing.Patterns;

namespace FileTransfer.Server.Security;

/// <summary>
/// The one rule that protects the file API: every endpoint under <c>api/files</c>, whichever
/// controller declares it, requires the scope of its HTTP method(s) (<see cref="Scopes.ForMethod"/>).
/// Actions added later are covered without an attribute of their own.
/// </summary>
internal static class FileScopeConvention
{
    public const string Prefix = "api/files";

    public static TBuilder RequireFileScopes<TBuilder>(this TBuilder builder)
        where TBuilder : IEndpointConventionBuilder
    {
        builder.Add(endpoint =>
        {
            if (endpoint is not RouteEndpointBuilder route || !IsUnderFiles(route.RoutePattern))
            {
                return;
            }

            // An endpoint without a method constraint accepts every method, so it needs every scope.
            var methods = endpoint.Metadata.OfType<IHttpMethodMetadata>().LastOrDefault()?.HttpMethods;
            var scopes = methods is null || methods.Count == 0
                ? Scopes.All
                : methods.SelectMany(Scopes.ForMethod).Distinct(StringComparer.Ordinal).ToList();
            foreach (var scope in scopes)
            {
                endpoint.Metadata.Add(new AuthorizeAttribute(scope));
            }
        });
        return builder;
    }

    private static bool IsUnderFiles(RoutePattern pattern)
    {
        var text = (pattern.RawText ?? "").TrimStart('/');
        return text.StartsWith(Prefix, StringComparison.OrdinalIgnoreCase)
            && (text.Length == Prefix.Length || text[Prefix.Length] == '/');
    }
}
