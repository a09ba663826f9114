using FileTransfer.Server.Security;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace FileTransfer.Server.OpenApi;

/// <summary>
/// Declares the three ways to authenticate in the OpenAPI document, so that Swagger UI's
/// "Authorize" button and generated clients can send a key or a signed link. Which operations need
/// them is said per operation (<see cref="OpenApiOperationSecurity"/>): there is no document-wide
/// requirement, so public operations (health, metrics, the document itself) carry no lock.
/// </summary>
internal sealed class OpenApiSecurityTransformer : IOpenApiDocumentTransformer
{
    public const string Bearer = "Bearer";
    public const string ApiKey = "ApiKey";
    public const string SignedLinkScheme = "SignedLink";

    public Task TransformAsync(OpenApiDocument document, OpenApiDocumentTransformerContext context, CancellationToken cancellationToken)
    {
        AddSchemes(document);
        document.Security = null;
        return Task.CompletedTask;
    }

    /// <summary>The schemes as components; operation transformers call it too, as they run before document transformers.</summary>
    public static void AddSchemes(OpenApiDocument document)
    {
        document.Components ??= new OpenApiComponents();
        document.Components.SecuritySchemes ??= new Dictionary<string, IOpenApiSecurityScheme>();
        document.Components.SecuritySchemes.TryAdd(Bearer, new OpenApiSecurityScheme
        {
            Type = SecuritySchemeType.Http,
            Scheme = "bearer",
            Description = "An API key with the scope of the method: GET/HEAD read, PUT/POST write, DELETE delete.",
        });
        document.Components.SecuritySchemes.TryAdd(ApiKey, new OpenApiSecurityScheme
        {
            Type = SecuritySchemeType.ApiKey,
            In = ParameterLocation.Header,
            Name = FileTransferAuthenticationHandler.ApiKeyHeader,
            Description = "The same API key in a header of its own.",
        });
        document.Components.SecuritySchemes.TryAdd(SignedLinkScheme, new OpenApiSecurityScheme
        {
            Type = SecuritySchemeType.ApiKey,
            In = ParameterLocation.Query,
            Name = SignedLink.QueryParameter,
            Description = "A token from POST /api/links, valid for one file and one method class.",
        });
    }
}
