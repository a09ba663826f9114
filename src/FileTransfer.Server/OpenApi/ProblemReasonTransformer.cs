using System.Text.Json.Nodes;
using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace FileTransfer.Server.OpenApi;

/// <summary>
/// Declares the problem's <c>reason</c> member on the <c>ProblemDetails</c> schema, with every value
/// the server can send, so that generated clients switch on it instead of on the text.
/// </summary>
internal sealed class ProblemReasonTransformer : IOpenApiDocumentTransformer
{
    public Task TransformAsync(OpenApiDocument document, OpenApiDocumentTransformerContext context, CancellationToken cancellationToken)
    {
        if (document.Components?.Schemas?.TryGetValue(OpenApiParts.ProblemSchema, out var problem) == true && problem is OpenApiSchema schema)
        {
            schema.Properties ??= new Dictionary<string, IOpenApiSchema>();
            schema.Properties[HttpErrors.ReasonMember] = new OpenApiSchema
            {
                Type = JsonSchemaType.String,
                Description = "Why the server refused the request: a stable value to switch on, the same string a gRPC client reads from google.rpc.ErrorInfo.reason for the same failure. Present on every problem.",
                Enum = [.. Enum.GetValues<ErrorReason>().Select(reason => (JsonNode)JsonValue.Create(reason.Code())!)],
            };
        }

        return Task.CompletedTask;
    }
}
