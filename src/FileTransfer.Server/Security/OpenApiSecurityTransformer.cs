using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace FileTransfer.Server.Security;

/// <summary>
/// Declares the three ways to authenticate in the OpenAPI document, as alternatives, so that
/// Swagger UI's "Authorize" button and generated clients can send a key or a signed link.
/// </summary>
internal sealed class OpenApiSecurityTransformer : IOpenApiDocumentTransformer
{
    public Task TransformAsync(OpenApiDocument document, OpenApiDocumentTransformerContext context, CancellationToken cancellationToken)
    {
        document.Components ??= new OpenApiComponents();
        document.Components.SecuritySchemes ??= new Dictionary<string, IOpenApiSecurityScheme>();
        document.Components.SecuritySchemes["Bearer"] = new OpenApiSecurityScheme
        {
            Type = SecuritySchemeType.Http,
            Scheme = "bearer",
            Description = "An API key with the scope of the method: GET/HEAD read, PUT/POST write, DELETE delete.",
        };
        document.Components.SecuritySchemes["ApiKey"] = new OpenApiSecurityScheme
        {
            Type = SecuritySchemeType.ApiKey,
            In = ParameterLocation.Header,
            Name = FileTransferAuthenticationHandler.ApiKeyHeader,
            Description = "The same API key in a header of its own.",
        };
        document.Components.SecuritySchemes["SignedLink"] = new OpenApiSecurityScheme
        {
            Type = SecuritySchemeType.ApiKey,
            In = ParameterLocation.Query,
            Name = SignedLink.QueryParameter,
            Description = "A token from POST /api/links, valid for one file and one method class.",
        };

        // A list of requirement objects means "any one of them" (OpenAPI 3.1, 4.8.30).
        document.Security = [.. document.Components.SecuritySchemes.Keys.Select(name =>
            new OpenApiSecurityRequirement { [new OpenApiSecuritySchemeReference(name, document)] = [] })];
        return Task.CompletedTask;
    }
}
