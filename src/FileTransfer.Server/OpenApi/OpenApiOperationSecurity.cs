using System.Globalization;
using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc.ModelBinding;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.Extensions.Options;
using Microsoft.OpenApi;
using static FileTransfer.Server.OpenApi.OpenApiParts;

namespace FileTransfer.Server.OpenApi;

/// <summary>
/// Per operation: the credentials that can grant it (<c>security</c>, the scope as the role a key
/// needs, OpenAPI 3.1 4.8.30) and the errors authentication, authorization and the rate limiter
/// really answer it with (401 with <c>WWW-Authenticate</c>, 403, 429 with <c>Retry-After</c>).
/// Read from the endpoint's own authorization metadata, the convention's included, so that the
/// document says what the server enforces; operations without it get nothing.
/// </summary>
internal sealed class OpenApiOperationSecurity(
    IOptions<AuthOptions> auth,
    IOptions<RateLimitOptions> limits) : IOpenApiOperationTransformer
{
    public Task TransformAsync(OpenApiOperation operation, OpenApiOperationTransformerContext context, CancellationToken cancellationToken)
    {
        var document = context.Document;
        var metadata = context.Description.ActionDescriptor.EndpointMetadata;
        if (document is null || !metadata.OfType<IAuthorizeData>().Any() || metadata.OfType<IAllowAnonymous>().Any())
        {
            return Task.CompletedTask;
        }

        OpenApiSecurityTransformer.AddSchemes(document);
        var scopes = metadata.OfType<IAuthorizeData>().Select(a => a.Policy).OfType<string>()
            .Where(Scopes.All.Contains).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal).ToList();
        operation.Security = [.. Requirements(document, scopes, HasPathRouteValue(context))];
        if (scopes is [Scopes.Read] && auth.Value.AllowAnonymousRead)
        {
            // An empty requirement: callers that send no credential at all may read (Auth:AllowAnonymousRead).
            operation.Security.Add(new OpenApiSecurityRequirement());
        }

        var unauthorized = Declare(operation, document, 401, "No credential where one is needed, or a key or signed link that was refused (unknown, expired, altered).");
        unauthorized.Headers ??= new Dictionary<string, IOpenApiHeader>();
        unauthorized.Headers["WWW-Authenticate"] = ResponseHeader("`Bearer realm=\"FileTransfer\"`, with `error=\"invalid_token\"` when a credential was refused (RFC 6750 3).");
        Declare(operation, document, 403, scopes.Count == 0
            ? "The credential does not grant this operation."
            : $"The key lacks the '{string.Join("', '", scopes)}' scope, or the signed link is for another file or method.");

        var route = "/" + (context.Description.RelativePath ?? "").Split('?')[0];
        if (limits.Value.Enabled && RateLimiting.Covers(route))
        {
            var tooMany = Declare(operation, document, 429, "This client has too many requests in flight or started too many per second.");
            tooMany.Headers ??= new Dictionary<string, IOpenApiHeader>();
            tooMany.Headers["Retry-After"] = ResponseHeader("Seconds to wait before retrying (RFC 9110 10.2.3).", JsonSchemaType.Integer);
        }

        return Task.CompletedTask;
    }

    /// <summary>
    /// Any of the key schemes with the scopes as roles; a signed link too where one can grant the
    /// operation, by the rule of <see cref="ScopeAuthorizationHandler"/>: a read or write link, and
    /// only on a route whose <c>path</c> names the file (never the listing, multipart, delete or links).
    /// </summary>
    private static IEnumerable<OpenApiSecurityRequirement> Requirements(OpenApiDocument document, List<string> scopes, bool hasPath)
    {
        yield return Requirement(document, OpenApiSecurityTransformer.Bearer, scopes);
        yield return Requirement(document, OpenApiSecurityTransformer.ApiKey, scopes);
        if (hasPath && scopes is [Scopes.Read or Scopes.Write])
        {
            yield return Requirement(document, OpenApiSecurityTransformer.SignedLinkScheme, scopes);
        }
    }

    private static OpenApiSecurityRequirement Requirement(OpenApiDocument document, string scheme, List<string> scopes) =>
        new() { [new OpenApiSecuritySchemeReference(scheme, document)] = [.. scopes] };

    private static bool HasPathRouteValue(OpenApiOperationTransformerContext context) =>
        context.Description.ParameterDescriptions.Any(p =>
            p.Name == Routes.PathRouteValue && p.Source == BindingSource.Path);

    /// <summary>The response for <paramref name="status"/>: the one attributes declared (as problem+json), or a new problem response.</summary>
    private static OpenApiResponse Declare(OpenApiOperation operation, OpenApiDocument document, int status, string description)
    {
        Ensure(operation, status, () => Problem(document, status, description));
        return (OpenApiResponse)operation.Responses![status.ToString(CultureInfo.InvariantCulture)];
    }
}
