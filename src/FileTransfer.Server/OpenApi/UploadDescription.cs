using Microsoft.OpenApi;
using static FileTransfer.Server.OpenApi.OpenApiParts;

namespace FileTransfer.Server.OpenApi;

/// <summary>PUT/POST api/files/{path} (raw body) and POST api/files (multipart/form-data).</summary>
internal static class UploadDescription
{
    public static void ApplyRaw(OpenApiOperation operation, OpenApiDocument document)
    {
        Add(operation,
            Header("Content-Digest", "`sha-256=:BASE64:` of the body (RFC 9530 2): verified before the file is stored; a mismatch is 400."),
            Header("If-None-Match", "`*`: store only if no file has this name yet, else 412 (RFC 9110 13.1.2)."),
            Header("If-Match", "ETag: replace only the version with this ETag, else 412 (RFC 9110 13.1.1)."));
        operation.RequestBody = new OpenApiRequestBody
        {
            Description = "The file's bytes, streamed to disk; nothing is visible until all arrived and the digest matched.",
            Required = true,
            Content = BinaryContent(),
        };
        Ensure(operation, 200, () => new OpenApiResponse { Description = "Replaced an existing file." });
        Ensure(operation, 201, () => new OpenApiResponse { Description = "Created a new file." });
        SetLocation(operation);
        AddUploadErrors(operation, document);
        Ensure(operation, 412, () => Problem(document, 412, "If-None-Match: * and the file exists, or If-Match and it changed."));
    }

    public static void ApplyMultipart(OpenApiOperation operation, OpenApiDocument document)
    {
        Add(operation, new OpenApiParameter
        {
            Name = "folder",
            In = ParameterLocation.Query,
            Description = "Folder the parts are stored in, e.g. `photos/2025`; each part keeps its filename.",
            Schema = new OpenApiSchema { Type = JsonSchemaType.String },
        });
        operation.RequestBody ??= new OpenApiRequestBody
        {
            Description = "One or several file parts; each part's filename is its name on the server.",
            Required = true,
            Content = new Dictionary<string, OpenApiMediaType>
            {
                ["multipart/form-data"] = new()
                {
                    Schema = new OpenApiSchema
                    {
                        Type = JsonSchemaType.Object,
                        Properties = new Dictionary<string, IOpenApiSchema>
                        {
                            ["file"] = new OpenApiSchema { Type = JsonSchemaType.Array, Items = Binary() },
                        },
                    },
                },
            },
        };
        Ensure(operation, 201, () => new OpenApiResponse { Description = "Stored every part; the body lists them." });
        AddUploadErrors(operation, document);
        Ensure(operation, 415, () => Problem(document, 415, "The body is not multipart/form-data."));
    }

    private static void AddUploadErrors(OpenApiOperation operation, OpenApiDocument document)
    {
        Ensure(operation, 400, () => Problem(document, 400, "Invalid name, or the Content-Digest does not match the bytes."));
        Ensure(operation, 409, () => Problem(document, 409, "The name is a folder, or a folder in the name is a file."));
        Ensure(operation, 413, () => Problem(document, 413, "Larger than Storage:MaxFileSizeBytes or the signed link's limit."));
        Ensure(operation, 507, () => Problem(document, 507, "The server's disk is full; nothing was stored."));
    }

    private static void SetLocation(OpenApiOperation operation)
    {
        if (operation.Responses?.GetValueOrDefault("201") is OpenApiResponse created)
        {
            created.Headers ??= new Dictionary<string, IOpenApiHeader>();
            created.Headers.TryAdd("Location", ResponseHeader("URL of the stored file."));
        }
    }
}
