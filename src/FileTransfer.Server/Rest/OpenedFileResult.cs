using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Net.Http.Headers;

namespace FileTransfer.Server.Rest;

/// <summary>
/// A download of one opened version with PhysicalFileResult's HTTP semantics (RFC 9110 13 conditional
/// requests, 14 ranges; the framework's FileResultExecutorBase decides them), where everything the
/// semantics look at comes from that one open: size, Last-Modified and ETag describe the version the
/// core opened, and the bytes are read from it (<see cref="OpenedFileSender"/>), never by opening
/// the name again. A replace during the download can therefore never mix two versions, nor pair an
/// old ETag with new bytes. <see cref="PhysicalFileResult.FileName"/> is where the version was
/// opened on disk (a label for logs; an object store's name where there is no path).
/// </summary>
internal sealed class OpenedFileResult : PhysicalFileResult
{
    // Parsing the media type and the ETag was a measurable share of a small GET; the same few come
    // back. Read-only copies: one parsed value is shared by every response that carries it.
    private static readonly RecentValues<string, MediaTypeHeaderValue> MediaTypes = new(1024, t => MediaTypeHeaderValue.Parse(t).CopyAsReadOnly());
    private static readonly RecentValues<string, EntityTagHeaderValue> EntityTags = new(4096, tag => EntityTagHeaderValue.Parse(tag));

    public OpenedFileResult(OpenedFile file)
        : base(file.PhysicalPath ?? file.Version.Name, MediaTypes[file.Version.ContentType])
    {
        File = file;
        LastModified = file.Version.LastModified;
        EntityTag = EntityTags[file.Version.ETag];
        EnableRangeProcessing = true;
    }

    public OpenedFile File { get; }

    /// <summary>
    /// Answer with <c>307</c> to the store's URL where the framework would send the body (200/206):
    /// conditions, ranges that cannot be satisfied and HEAD are still decided here.
    /// </summary>
    public bool Redirect { get; init; }

    public override Task ExecuteResultAsync(ActionContext context) =>
        context.HttpContext.RequestServices.GetRequiredService<OpenedFileResultExecutor>().ExecuteAsync(context, this);
}
