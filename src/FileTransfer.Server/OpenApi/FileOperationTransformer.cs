using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;
using static FileTransfer.Server.OpenApi.OpenApiParts;

namespace FileTransfer.Server.OpenApi;

/// <summary>
/// Completes the <c>api/files</c> operations with what attributes cannot say: the conditional and
/// range headers, binary bodies, response headers; and makes every operation's error responses
/// RFC 9457 problems with their problem type. Keyed by route and method, so that operations added later (uploads, delete) are
/// described as soon as they exist.
/// </summary>
internal sealed class FileOperationTransformer : IOpenApiOperationTransformer
{
    private const string FilesRoute = "api/files";

    public Task TransformAsync(OpenApiOperation operation, OpenApiOperationTransformerContext context, CancellationToken cancellationToken)
    {
        var route = context.Description.RelativePath?.Split('?')[0].TrimEnd('/');
        var method = context.Description.HttpMethod?.ToUpperInvariant();
        var document = context.Document;
        if (document is null)
        {
            return Task.CompletedTask;
        }

        // Every operation's errors are problem details; then api/files gets its own details.
        NormalizeResponses(operation, document);
        if (route is null || !route.StartsWith(FilesRoute, StringComparison.Ordinal))
        {
            return Task.CompletedTask;
        }

        var isFile = route.Length > FilesRoute.Length;
        switch (method)
        {
            case "GET" or "HEAD" when isFile:
                DownloadDescription.Apply(operation, document, isHead: method == "HEAD");
                break;
            case "PUT" or "POST" when isFile:
                UploadDescription.ApplyRaw(operation, document);
                break;
            case "POST":
                UploadDescription.ApplyMultipart(operation, document);
                break;
            case "DELETE":
                Add(operation, Header("If-Match", "ETag: delete only the version with this ETag, else 412 (RFC 9110 13.1.1)."));
                Ensure(operation, 204, () => new OpenApiResponse { Description = "Deleted." });
                Ensure(operation, 400, () => Problem(document, 400, "The name is not a valid file name."));
                Ensure(operation, 404, () => Problem(document, 404, "There is no such file."));
                Ensure(operation, 412, () => Problem(document, 412, "If-Match and the file changed."));
                break;
        }

        return Task.CompletedTask;
    }

    /// <summary>
    /// Errors are problem+json and nothing else; 204/304 have no body; placeholders that the
    /// controller-wide [Produces] adds without a schema are dropped.
    /// </summary>
    private static void NormalizeResponses(OpenApiOperation operation, OpenApiDocument document)
    {
        foreach (var (code, response) in operation.Responses ?? [])
        {
            if (response is not OpenApiResponse concrete || !int.TryParse(code, out var status))
            {
                continue;
            }

            if (status >= 400)
            {
                var problem = Problem(document, status, concrete.Description ?? string.Empty);
                concrete.Content = problem.Content;
            }
            else if (status is 204 or 304)
            {
                concrete.Content = null;
            }
            else if (concrete.Content is not null)
            {
                foreach (var mediaType in concrete.Content.Where(c => c.Value.Schema is null).Select(c => c.Key).ToList())
                {
                    concrete.Content.Remove(mediaType);
                }
            }
        }
    }
}
