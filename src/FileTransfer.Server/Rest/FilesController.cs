using System.Net.Mime;
using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Rest;

/// <summary>Files under the storage root over HTTP/1.1 and HTTP/2.</summary>
[ApiController]
[Route(Routes.Files)]
internal sealed class FilesController(FileOperations files) : ControllerBase
{
    /// <summary>
    /// Lists the stored files in ordinal name order, optionally only those whose name starts with
    /// <paramref name="prefix"/>, one page at a time. When more files follow, the response carries
    /// <c>Link: &lt;next page URL&gt;; rel="next"</c> (RFC 8288); the last page has no Link.
    /// </summary>
    /// <param name="prefix">Name prefix, e.g. <c>reports/</c>.</param>
    /// <param name="pageSize">Most files per page: default 1,000, at most 10,000.</param>
    /// <param name="pageToken">The token from the previous page's <c>Link</c>, with the same prefix.</param>
    [HttpGet]
    [Operation(FileOperation.List)]
    // No [Produces]: it would also force application/json onto the 400 problem.
    [ProducesResponseType<IEnumerable<FileDescription>>(StatusCodes.Status200OK, MediaTypeNames.Application.Json)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    public async Task<IActionResult> List([FromQuery] string? prefix, [FromQuery] int pageSize = 0, [FromQuery] string? pageToken = null)
    {
        var page = await files.ListAsync(Callers.Of(HttpContext), new ListQuery(prefix, pageSize, pageToken), HttpContext.RequestAborted);
        if (page.NextPageToken is { } next)
        {
            Response.Headers.Link = $"<{ListingLinks.NextPage(Request, next)}>; rel=\"next\"";
        }

        return Ok(page.Files.Select(FileDescription.From));
    }

    /// <summary>
    /// Downloads a file: one version, opened once, whose headers and bytes agree even while the name
    /// is being replaced. Carries <c>Repr-Digest: sha-256=:base64:</c> (RFC 9530). Supports a single <c>Range</c> (206/416), <c>If-Range</c>,
    /// <c>If-None-Match</c>/<c>If-Modified-Since</c> (304) and <c>If-Match</c>/<c>If-Unmodified-Since</c> (412).
    /// On an object store with <c>Storage:S3:RedirectDownloads</c>, a GET that would send bytes answers
    /// <c>307</c> with a presigned URL of the store instead (after the same authorization and conditions),
    /// unless it carries a condition the store does not decide right (<c>If-Range</c>, a list of ETags).
    /// </summary>
    /// <param name="path">Name relative to the storage root, '/' separated (sent as one encoded value, `videos%2Fnotes.txt`, it names the same file).</param>
    [HttpGet("{**path}")]
    [HttpHead("{**path}")]
    [Operation(FileOperation.Read)]
    [Produces(MediaTypeNames.Application.Octet)]
    [ProducesResponseType<FileStreamResult>(StatusCodes.Status200OK, MediaTypeNames.Application.Octet)]
    [ProducesResponseType<FileStreamResult>(StatusCodes.Status206PartialContent, MediaTypeNames.Application.Octet)]
    [ProducesResponseType(StatusCodes.Status304NotModified)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status404NotFound, "application/problem+json")]
    [ProducesResponseType(StatusCodes.Status412PreconditionFailed)]
    [ProducesResponseType(StatusCodes.Status416RangeNotSatisfiable)]
    public async Task<IActionResult> Download(string path)
    {
        var aborted = HttpContext.RequestAborted;
        var file = await files.OpenAsync(Callers.Of(HttpContext), path, Preconditions.None, aborted);
        Response.RegisterForDisposeAsync(file);
        DownloadHeaders.Apply(Response.Headers, file.Version);

        // The store sends a redirected GET's bytes: a digest the backend does not know yet is not
        // worth reading the whole file here (a 304 or 412 still carries a known one). Not when the
        // store would decide the request's conditions wrongly (If-Range: RGW ignores it): then this
        // server answers from the version it opened, as without redirects.
        var redirect = HttpMethods.IsGet(Request.Method) && files.RedirectsDownload(ForwardedConditionHeaders.Of(Request.Headers));

        // RFC 9530 3: the digest of the whole representation, also on 206, so that a client
        // reassembling ranges can verify the result; from the same open as the bytes.
        if (!redirect || file.Sha256 is not null)
        {
            Response.Headers[ContentDigest.ReprDigestHeader] = ContentDigest.Format(await files.DigestAsync(file, aborted));
        }

        // PhysicalFileResult's semantics (RFC 9110 13 conditional requests, 14 ranges) decide the
        // answer, once a Range header field that must be ignored is out of their way.
        IgnoredRanges.Apply(Request);
        return new OpenedFileResult(file) { Redirect = redirect };
    }
}
