using Microsoft.OpenApi;
using static FileTransfer.Server.OpenApi.OpenApiParts;

namespace FileTransfer.Server.OpenApi;

/// <summary>GET/HEAD api/files/{path}: RFC 9110 conditional requests (13) and ranges (14).</summary>
internal static class DownloadDescription
{
    public static void Apply(OpenApiOperation operation, OpenApiDocument document, bool isHead)
    {
        Add(operation,
            Header("Range", "One byte range: `bytes=0-1023`, `bytes=1000-` or `bytes=-500` (RFC 9110 14.2). A multi-range request is answered with the whole file."),
            Header("If-Range", "An ETag from an earlier response: the Range applies only while the file still has it; otherwise the whole file is sent with 200 (RFC 9110 13.1.5)."),
            Header("If-None-Match", "ETag(s) the client has: 304 while the file still matches one (RFC 9110 13.1.2)."),
            Header("If-Modified-Since", "HTTP date: 304 unless the file changed after it (RFC 9110 13.1.3).", "date-time"),
            Header("If-Match", "ETag(s): 412 unless the file matches one (RFC 9110 13.1.1)."),
            Header("If-Unmodified-Since", "HTTP date: 412 if the file changed after it (RFC 9110 13.1.4).", "date-time"));

        operation.Responses ??= [];
        operation.Responses["200"] = FileResponse("The whole file.", isHead, withContentRange: false);
        operation.Responses["206"] = FileResponse("The requested range; Content-Range says which bytes of how many.", isHead, withContentRange: true);
        operation.Responses["304"] = new OpenApiResponse
        {
            Description = "Not modified: the client's copy (If-None-Match / If-Modified-Since) is current.",
            Headers = new Dictionary<string, IOpenApiHeader> { ["ETag"] = ResponseHeader("Strong entity tag of the current file.") },
        };
        if (!isHead)
        {
            // A GET only (HEAD is always answered here), and only on an object store that redirects.
            operation.Responses["307"] = new OpenApiResponse
            {
                Description = "On an S3 store with Storage:S3:RedirectDownloads, where 200/206 would send the bytes: fetch them from Location, a presigned URL of the store (send the Range again; no Authorization). Not cached.",
                Headers = new Dictionary<string, IOpenApiHeader> { ["Location"] = ResponseHeader("The store's presigned URL, valid for Storage:S3:RedirectSeconds.") },
            };
        }

        Ensure(operation, 400, () => Problem(document, 400, "The name is not a valid file name."));
        Ensure(operation, 404, () => Problem(document, 404, "There is no such file."));

        var preconditionFailed = Problem(document, 412, "If-Match or If-Unmodified-Since failed: the file changed. ETag is the current one.");
        preconditionFailed.Headers = new Dictionary<string, IOpenApiHeader> { ["ETag"] = ResponseHeader("Strong entity tag of the current file.") };
        operation.Responses["412"] = preconditionFailed;
        var notSatisfiable = Problem(document, 416, "The range starts past the end of the file.");
        notSatisfiable.Headers = new Dictionary<string, IOpenApiHeader> { ["Content-Range"] = ResponseHeader("`bytes */SIZE`: the current size.") };
        operation.Responses["416"] = notSatisfiable;
    }

    private static OpenApiResponse FileResponse(string description, bool isHead, bool withContentRange)
    {
        var headers = new Dictionary<string, IOpenApiHeader>
        {
            ["ETag"] = ResponseHeader("Strong entity tag from size and modification time; use it in If-Range, If-Match, If-None-Match."),
            ["Last-Modified"] = ResponseHeader("Modification time (HTTP date)."),
            ["Accept-Ranges"] = ResponseHeader("`bytes`: ranges are supported."),
            ["Content-Length"] = ResponseHeader("Bytes in this response.", JsonSchemaType.Integer),
            ["Content-Disposition"] = ResponseHeader("`inline` (`attachment` for HTML, SVG, XML, JavaScript) with `filename` and `filename*`."),
            ["Repr-Digest"] = ResponseHeader("`sha-256=:BASE64:`: SHA-256 of the whole file, also on 206 (RFC 9530 3)."),
            ["X-Content-Type-Options"] = ResponseHeader("`nosniff`."),
        };
        if (withContentRange)
        {
            headers["Content-Range"] = ResponseHeader("`bytes FIRST-LAST/SIZE` (RFC 9110 14.4).");
        }

        return new OpenApiResponse
        {
            Description = isHead ? description + " HEAD sends the headers only." : description,
            Headers = headers,
            Content = isHead ? null : BinaryContent(),
        };
    }
}
