using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Infrastructure;
using Microsoft.Extensions.Options;
using Microsoft.Net.Http.Headers;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Executes <see cref="OpenedFileResult"/> as PhysicalFileResultExecutor does (status, Content-Range,
/// Accept-Ranges, ETag, Last-Modified and the 304 / 412 / 416 decisions all come from
/// <see cref="FileResultExecutorBase.SetHeadersAndLog"/>), with the file's size taken from the
/// opened version instead of a fresh stat of the path, and the body from <see cref="OpenedFileSender"/>,
/// or, for a redirected download, a <c>307</c> to the store where the body would have been sent.
/// </summary>
internal sealed class OpenedFileResultExecutor(FileOperations files, ILoggerFactory loggerFactory, IOptions<TransferTuningOptions> options, SendBudget budget)
    : FileResultExecutorBase(CreateLogger<OpenedFileResultExecutor>(loggerFactory))
{
    public async Task ExecuteAsync(ActionContext context, OpenedFileResult result)
    {
        var size = result.File.Version.Size;
        var (range, rangeLength, serveBody) = SetHeadersAndLog(context, result, size, result.EnableRangeProcessing, result.LastModified, result.EntityTag);
        if (!serveBody)
        {
            await AnswerWithoutBodyAsync(context.HttpContext, size);
            return;
        }

        if (result.Redirect)
        {
            RedirectToStore(context.HttpContext, result.File);
            return;
        }

        var offset = range?.From ?? 0;
        var count = range is null ? size : rangeLength;
        try
        {
            await OpenedFileSender.SendAsync(context.HttpContext, result.File, offset, count, options.Value, budget);
        }
        catch (StorageReadException failed) when (!context.HttpContext.Response.HasStarted)
        {
            // An object store that no longer holds the opened version, or that stopped answering,
            // before a byte was sent: the client may retry (and gets the current version); never the
            // new bytes under the old headers. Once bytes went out, the exception cuts the response.
            context.HttpContext.Response.Clear();
            await ProblemWriter.WriteAsync(context.HttpContext, failed.ToRefusal());
        }
    }

    // The framework's evaluator (RFC 9110 13.2.2) gives its verdict as the status it set, with no
    // body: 304 and a HEAD are answers, a failed If-Match / If-Unmodified-Since (412, RFC 9110 13.1.1)
    // and a range past the end (416, 15.5.17) are refusals, answered here where they were decided, as
    // problems that keep the headers the evaluator set (ETag, Content-Range: bytes */size).
    private static Task AnswerWithoutBodyAsync(HttpContext context, long size)
    {
        var response = context.Response;
        var refusal = response.StatusCode switch
        {
            StatusCodes.Status412PreconditionFailed => new FileTransferException(ErrorReason.EtagMismatch, "The file does not match the If-Match / If-Unmodified-Since condition."),
            StatusCodes.Status416RangeNotSatisfiable => new FileTransferException(ErrorReason.OffsetPastEnd, $"The range starts past the end of the file ({size} bytes); Content-Range gives its size."),
            _ => null,
        };
        if (refusal is null)
        {
            return Task.CompletedTask;
        }

        response.ContentLength = null;
        return ProblemWriter.WriteAsync(context, refusal);
    }

    // RFC 9110 15.4.8: 307 keeps the method, and the client sends its Range (and If-Range) to the
    // store, which answers them for the same ETag. The representation headers written for a body
    // belong to the store's answer now; the disposition travels in the URL, as a response override.
    private void RedirectToStore(HttpContext context, OpenedFile file)
    {
        var response = context.Response;
        var disposition = response.Headers.ContentDisposition.ToString();
        var target = files.GetDownloadUrl(Callers.Of(context), file, disposition);
        foreach (var header in RepresentationHeaders)
        {
            response.Headers.Remove(header);
        }

        response.StatusCode = StatusCodes.Status307TemporaryRedirect;
        response.Headers.Location = target.Url.AbsoluteUri;

        // The URL is a credential for this one file until it expires: no cache may keep or share it.
        response.Headers.CacheControl = "no-store";
        response.ContentLength = 0;
    }

    private static readonly string[] RepresentationHeaders =
    [
        HeaderNames.ContentType, HeaderNames.ContentLength, HeaderNames.ContentRange, HeaderNames.ContentDisposition,
        HeaderNames.AcceptRanges, HeaderNames.ETag, HeaderNames.LastModified, ContentDigest.ReprDigestHeader,
    ];
}
