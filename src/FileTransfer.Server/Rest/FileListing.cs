using System.Net.Mime;
using FileTransfer.Core;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Rest;

/// <summary>The listing of the files under the storage root (their GET and HEAD: <see cref="FileDownloads"/>).</summary>
internal static class FileListing
{
    /// <summary>
    /// Lists the stored files in ordinal name order, optionally only those whose name starts with
    /// <paramref name="prefix"/>, one page at a time. When more files follow, the response carries
    /// <c>Link: &lt;next page URL&gt;; rel="next"</c> (RFC 8288); the last page has no Link.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="files">The storage core.</param>
    /// <param name="prefix">Name prefix, e.g. <c>reports/</c>.</param>
    /// <param name="pageSize">Most files per page: default 1,000, at most 10,000.</param>
    /// <param name="pageToken">The token from the previous page's <c>Link</c>, with the same prefix.</param>
    [Operation(FileOperation.List)]
    [ProducesResponseType<IEnumerable<FileDescription>>(StatusCodes.Status200OK, MediaTypeNames.Application.Json)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    public static async Task<IResult> List(HttpContext context, [FromServices] FileOperations files, [FromQuery] string? prefix, [FromQuery] int pageSize = 0, [FromQuery] string? pageToken = null)
    {
        var page = await files.ListAsync(Callers.Of(context), new ListQuery(prefix, pageSize, pageToken), context.RequestAborted);
        if (page.NextPageToken is { } next)
        {
            context.Response.Headers.Link = $"<{ListingLinks.NextPage(context.Request, next)}>; rel=\"next\"";
        }

        return Results.Ok(page.Files.Select(FileDescription.From));
    }
}
