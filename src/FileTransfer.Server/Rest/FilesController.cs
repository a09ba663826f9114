using System.Net.Mime;
using FileTransfer.Server.Storage;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Net.Http.Headers;

namespace FileTransfer.Server.Rest;

/// <summary>Files under the storage root over HTTP/1.1 and HTTP/2.</summary>
[ApiController]
[Route("api/files")]
internal sealed class FilesController : ControllerBase
{
    private readonly StoragePathResolver _resolver;
    private readonly FileCatalog _catalog;
    private readonly DigestStore _digests;

    public FilesController(StoragePathResolver resolver, FileCatalog catalog, DigestStore digests)
    {
        _resolver = resolver;
        _catalog = catalog;
        _digests = digests;
    }

    /// <summary>
    /// Lists the stored files in ordinal name order, optionally only those whose name starts with
    /// <paramref name="prefix"/>, one page at a time. When more files follow, the response carries
    /// <c>Link: &lt;next page URL&gt;; rel="next"</c> (RFC 8288); the last page has no Link.
    /// </summary>
    /// <param name="prefix">Name prefix, e.g. <c>reports/</c>.</param>
    /// <param name="pageSize">Most files per page: default 1,000, at most 10,000.</param>
    /// <param name="pageToken">The token from the previous page's <c>Link</c>, with the same prefix.</param>
    [HttpGet]
    // No [Produces]: it would also force application/json onto the 400 problem.
    [ProducesResponseType<IEnumerable<FileDescription>>(StatusCodes.Status200OK, MediaTypeNames.Application.Json)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    public IActionResult List([FromQuery] string? prefix, [FromQuery] int pageSize = 0, [FromQuery] string? pageToken = null)
    {
        FilePage page;
        try
        {
            page = _catalog.List(new ListQuery(prefix, pageSize, pageToken), HttpContext.RequestAborted);
        }
        catch (InvalidListQueryException ex)
        {
            return Problem(ex.Message, statusCode: StatusCodes.Status400BadRequest, title: "Invalid listing request");
        }

        if (page.NextPageToken is { } next)
        {
            Response.Headers.Link = $"<{ListingLinks.NextPage(Request, next)}>; rel=\"next\"";
        }

        return Ok(page.Files.Select(FileDescription.From));
    }

    /// <summary>
    /// Downloads a file. Carries <c>Repr-Digest: sha-256=:base64:</c> (RFC 9530). Supports a single <c>Range</c> (206/416), <c>If-Range</c>,
    /// <c>If-None-Match</c>/<c>If-Modified-Since</c> (304) and <c>If-Match</c>/<c>If-Unmodified-Since</c> (412).
    /// </summary>
    /// <param name="path">Name relative to the storage root, '/' separated.</param>
    [HttpGet("{**path}")]
    [HttpHead("{**path}")]
    [Produces(ContentTypes.Fallback)]
    [ProducesResponseType<FileStreamResult>(StatusCodes.Status200OK, ContentTypes.Fallback)]
    [ProducesResponseType<FileStreamResult>(StatusCodes.Status206PartialContent, ContentTypes.Fallback)]
    [ProducesResponseType(StatusCodes.Status304NotModified)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status404NotFound, "application/problem+json")]
    [ProducesResponseType(StatusCodes.Status412PreconditionFailed)]
    [ProducesResponseType(StatusCodes.Status416RangeNotSatisfiable)]
    public async Task<IActionResult> Download(string path)
    {
        if (!_resolver.TryResolve(path, out var resolved, out var rejection))
        {
            return Problem(rejection.Reason, statusCode: StatusCodes.Status400BadRequest, title: "Invalid file name");
        }

        var file = _catalog.Find(resolved);
        if (file is null)
        {
            return Problem($"There is no file named '{resolved.Name}'.", statusCode: StatusCodes.Status404NotFound, title: "File not found");
        }

        DownloadHeaders.Apply(Response.Headers, file);

        // RFC 9530 3: the digest of the whole representation, also on 206, so that a client
        // reassembling ranges can verify the result.
        Response.Headers[ContentDigest.ReprDigestHeader] = ContentDigest.Format(await _digests.GetAsync(file, HttpContext.RequestAborted));

        // PhysicalFileResult owns the HTTP semantics (RFC 9110 13 conditional requests, 14 ranges),
        // once a Range header field that must be ignored is out of its way.
        IgnoredRanges.Apply(Request);
        return PhysicalFile(file.FullPath, file.ContentType, file.LastModified, EntityTagHeaderValue.Parse(file.ETag), enableRangeProcessing: true);
    }
}
