using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace FileTransfer.Server.OpenApi;

/// <summary>
/// Document-wide parts: the title, <c>GET /healthz</c>, <c>/healthz/live</c> and <c>/healthz/ready</c> and the document's own <c>GET /openapi/v1.json</c>
/// (neither is an API-explorer endpoint, so nothing else describes them), and removal of component schemas nothing refers
/// to any more (the framework's FileStreamResult and EntityTagHeaderValue, replaced by binary bodies).
/// </summary>
internal sealed partial class OperationsDocumentTransformer : IOpenApiDocumentTransformer
{
    // The health endpoints (Hosting/HealthEndpoints): path, operation id, summary, what a 503 means.
    private static readonly (string Path, string Id, string Summary, string? Unhealthy)[] HealthPaths =
    [
        ("/healthz", "GetHealth", "The storage answers (the root exists, the bucket can be reached).", "`Unhealthy`: the storage is missing or does not answer within `Health:StorageTimeoutSeconds`."),
        ("/healthz/live", "GetLiveness", "Liveness: the process answers (no storage check).", null),
        ("/healthz/ready", "GetReadiness", "Readiness: the storage answers and the server is not shutting down.", "`Unhealthy`: the storage does not answer, or the server is draining before it stops."),
    ];

    public async Task TransformAsync(OpenApiDocument document, OpenApiDocumentTransformerContext context, CancellationToken cancellationToken)
    {
        document.Info ??= new OpenApiInfo();
        document.Info.Title = "FileTransfer API";
        document.Info.Description =
            "Files of any size over HTTP/1.1 and HTTP/2: streamed downloads with ranges and conditional requests (RFC 9110), " +
            "uploads verified by RFC 9530 digests, errors as RFC 9457 problem details.";

        document.Paths ??= [];
        foreach (var (path, id, summary, unhealthy) in HealthPaths)
        {
            var responses = new OpenApiResponses { ["200"] = new OpenApiResponse { Description = "`Healthy`.", Content = PlainText() } };
            if (unhealthy is not null)
            {
                responses["503"] = new OpenApiResponse { Description = unhealthy, Content = PlainText() };
            }

            document.Paths[path] = new OpenApiPathItem
            {
                Operations = new Dictionary<HttpMethod, OpenApiOperation>
                {
                    [HttpMethod.Get] = new()
                    {
                        OperationId = id,
                        Summary = summary,
                        Tags = new HashSet<OpenApiTagReference> { new("Operations", document) },
                        Responses = responses,
                    },
                },
            };
        }

        // The document describes itself too, so that clients see it is public (no security).
        document.Paths["/openapi/" + context.DocumentName + ".json"] = new OpenApiPathItem
        {
            Operations = new Dictionary<HttpMethod, OpenApiOperation>
            {
                [HttpMethod.Get] = new()
                {
                    OperationId = "GetOpenApiDocument",
                    Summary = "This OpenAPI document.",
                    Tags = new HashSet<OpenApiTagReference> { new("Operations", document) },
                    Responses = new OpenApiResponses
                    {
                        ["200"] = new OpenApiResponse
                        {
                            Description = "The document (OpenAPI 3.1), as Swagger UI and clients load it.",
                            Content = new Dictionary<string, OpenApiMediaType> { ["application/json"] = new OpenApiMediaType { Schema = new OpenApiSchema { Type = JsonSchemaType.Object } } },
                        },
                    },
                },
            },
        };

        await RemoveUnreferencedSchemasAsync(document, cancellationToken);
    }

    private static Dictionary<string, OpenApiMediaType> PlainText() =>
        new() { ["text/plain"] = new OpenApiMediaType { Schema = new OpenApiSchema { Type = JsonSchemaType.String } } };

    private static async Task RemoveUnreferencedSchemasAsync(OpenApiDocument document, CancellationToken cancellationToken)
    {
        if (document.Components?.Schemas is not { Count: > 0 } schemas)
        {
            return;
        }

        // Serialise once and follow "$ref"s from the paths through the schemas they reach.
        using var json = JsonDocument.Parse(await document.SerializeAsJsonAsync(OpenApiSpecVersion.OpenApi3_1, cancellationToken));
        var componentJson = json.RootElement.GetProperty("components").GetProperty("schemas");
        var reached = new HashSet<string>(StringComparer.Ordinal);
        var pending = new Queue<string>(References(json.RootElement.GetProperty("paths").GetRawText()));
        while (pending.TryDequeue(out var name))
        {
            if (reached.Add(name) && componentJson.TryGetProperty(name, out var schema))
            {
                foreach (var next in References(schema.GetRawText()))
                {
                    pending.Enqueue(next);
                }
            }
        }

        foreach (var name in schemas.Keys.Where(n => !reached.Contains(n)).ToList())
        {
            schemas.Remove(name);
        }
    }

    private static IEnumerable<string> References(string json) =>
        SchemaReference().Matches(json).Select(m => m.Groups[1].Value);

    [GeneratedRegex("\"#/components/schemas/([^\"]+)\"")]
    private static partial Regex SchemaReference();
}
