using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Abstractions;

namespace FileTransfer.Server.Rest;

/// <summary>
/// GET and HEAD of <c>api/files/{path}</c>: a direct endpoint (<see cref="FileDownloadEndpoint"/>)
/// rather than an MVC action. A small file's GET spent a large part of its time in MVC's action and
/// result invokers (controller activation, model binding and state, filter pipelines, a box per
/// awaiting layer) for what is one open and one file result (docs/performance-notes.md). The
/// semantics are the same code as before: the core's one-version open, <see cref="OpenedFileResult"/>
/// run by <see cref="OpenedFileResultExecutor"/> (PhysicalFileResult's RFC 9110 conditional requests
/// and ranges), and the REST error filter's answers (<see cref="RestErrorFilter.AnswerTo"/>).
/// </summary>
internal sealed class FileDownloads(FileOperations files, TransferOrigins transfers, OpenedFileResultExecutor executor, ILogger<RestErrorFilter> errors)
{
    // FileResultExecutorBase and the error results take an ActionContext; this endpoint has no action.
    private static readonly ActionDescriptor Endpoint = new() { DisplayName = "GET/HEAD " + Protocol.Routes.Files + "/{**path}" };

    /// <summary>
    /// Downloads a file: one version, opened once, whose headers and bytes agree even while the name
    /// is being replaced. Carries <c>Repr-Digest: sha-256=:base64:</c> (RFC 9530). Supports a single <c>Range</c> (206/416), <c>If-Range</c>,
    /// <c>If-None-Match</c>/<c>If-Modified-Since</c> (304) and <c>If-Match</c>/<c>If-Unmodified-Since</c> (412).
    /// On an object store with <c>Storage:S3:RedirectDownloads</c>, a GET that would send bytes answers
    /// <c>307</c> with a presigned URL of the store instead (after the same authorization and conditions),
    /// unless it carries a condition the store does not decide right (<c>If-Range</c>, a list of ETags).
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="path">Name relative to the storage root, '/' separated (sent as one encoded value, `videos%2Fnotes.txt`, it names the same file).</param>
    public async Task Download(HttpContext context, string? path)
    {
        var action = new ActionContext(context, new Microsoft.AspNetCore.Routing.RouteData(), Endpoint);
        OpenedFileResult result;
        try
        {
            // "api/files" itself (HEAD: the listing takes GET) names no file: the core refuses the empty
            // name as any other invalid one, rather than the endpoint's binding with an empty 400.
            result = await OpenAsync(context, path ?? "");
        }
        catch (Exception ex) when (RestErrorFilter.AnswerTo(ex, context, errors) is { } answer)
        {
            await answer.ExecuteAsync(context);
            return;
        }

        try
        {
            await executor.ExecuteAsync(action, result);
        }
        catch (Exception) when (context.RequestAborted.IsCancellationRequested)
        {
            RequestTransfers.ClientLeft(context);
            throw;
        }
    }

    // What the action did: open once, the download headers, the digest, the ranges to ignore.
    private async Task<OpenedFileResult> OpenAsync(HttpContext context, string path)
    {
        var request = context.Request;
        var response = context.Response;
        var aborted = context.RequestAborted;

        // A GET is a transfer; a HEAD sends no bytes and is not one.
        var origin = HttpMethods.IsGet(request.Method) ? transfers.For(context, TransferProtocol.Rest) : null;
        var file = await files.OpenAsync(Callers.Of(context), path, Preconditions.None, origin, aborted);
        response.RegisterForDisposeAsync(file);
        DownloadHeaders.Apply(response.Headers, file.Version);

        // The store sends a redirected GET's bytes: a digest the backend does not know yet is not
        // worth reading the whole file here (a 304 or 412 still carries a known one). Not when the
        // store would decide the request's conditions wrongly (If-Range: RGW ignores it): then this
        // server answers from the version it opened, as without redirects.
        var redirect = HttpMethods.IsGet(request.Method) && files.RedirectsDownload(ForwardedConditionHeaders.Of(request.Headers));

        // RFC 9530 3: the digest of the whole representation, also on 206, so that a client
        // reassembling ranges can verify the result; from the same open as the bytes.
        if (!redirect || file.Sha256 is not null)
        {
            response.Headers[ContentDigest.ReprDigestHeader] = ContentDigest.Format(await files.DigestAsync(file, aborted));
        }

        // PhysicalFileResult's semantics (RFC 9110 13 conditional requests, 14 ranges) decide the
        // answer, once a Range header field that must be ignored is out of their way.
        IgnoredRanges.Apply(request);
        return new OpenedFileResult(file) { Redirect = redirect };
    }
}
