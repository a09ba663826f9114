using FileTransfer.Server.Hosting;
using Microsoft.AspNetCore.Http.Features;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// Measures REST transfers without changing how they are served: downloads keep
/// PhysicalFileResult (its SendFileAsync is routed through a counting stream), uploads read a
/// counting request body. Each transfer ends with one metrics update and one log line.
/// </summary>
internal sealed class RestTransferObserver(RequestDelegate next, TransferMetrics metrics, ILogger<RestTransferObserver> logger)
{
    public const string Protocol = "rest";
    private static readonly PathString FilesPath = new("/api/files");

    public async Task InvokeAsync(HttpContext context)
    {
        var direction = DirectionOf(context.Request, out var name);
        if (direction is null)
        {
            await next(context);
            return;
        }

        var transfer = metrics.Start(Protocol, direction);
        var outcome = TransferOutcome.Failed;
        var responseBody = context.Features.GetRequiredFeature<IHttpResponseBodyFeature>();
        var requestBody = context.Request.Body;
        StreamResponseBodyFeature? counted = null;
        if (direction == TransferDirection.Download && responseBody is PipeSendFileFeature pipe)
        {
            // The pipe send-file path reports what it flushed; wrapping it would undo its copy savings.
            pipe.Progress = transfer;
        }
        else if (direction == TransferDirection.Download)
        {
            // Kestrel's own SendFileAsync copies through the response stream exactly as
            // StreamResponseBodyFeature does, so counting there costs no extra copy.
            counted = new StreamResponseBodyFeature(new CountingStream(responseBody.Stream, transfer), responseBody);
            context.Features.Set<IHttpResponseBodyFeature>(counted);
        }
        else
        {
            context.Request.Body = new CountingStream(requestBody, transfer);
        }

        try
        {
            await next(context);
            if (counted is not null)
            {
                await counted.CompleteAsync();
            }

            // A client that leaves mid-body may not have tripped RequestAborted yet when the send
            // loop notices the closed connection; fewer bytes than Content-Length says the same.
            var cutShort = direction == TransferDirection.Download
                && context.Response.StatusCode is StatusCodes.Status200OK or StatusCodes.Status206PartialContent
                && context.Response.ContentLength is { } expected
                && transfer.Bytes < expected;
            outcome = context.RequestAborted.IsCancellationRequested || cutShort ? TransferOutcome.Aborted : TransferOutcome.For(context.Response.StatusCode);
        }
        catch (Exception) when (context.RequestAborted.IsCancellationRequested)
        {
            outcome = TransferOutcome.Aborted;
            throw;
        }
        finally
        {
            context.Features.Set(responseBody);
            context.Request.Body = requestBody;
            transfer.Complete(outcome);
            Log.TransferCompleted(logger, direction, name, transfer.Protocol, context.Request.Protocol, transfer.Bytes,
                (long)transfer.Elapsed.TotalMilliseconds, outcome, context.Response.StatusCode);
        }
    }

    /// <summary>GET of a file is a download; PUT or POST of a file or a multipart form is an upload.</summary>
    private static string? DirectionOf(HttpRequest request, out string name)
    {
        name = string.Empty;
        if (!request.Path.StartsWithSegments(FilesPath, out var rest))
        {
            return null;
        }

        name = rest.HasValue ? rest.Value!.TrimStart('/') : string.Empty;
        if (HttpMethods.IsGet(request.Method))
        {
            return name.Length > 0 ? TransferDirection.Download : null;
        }

        return HttpMethods.IsPut(request.Method) || HttpMethods.IsPost(request.Method) ? TransferDirection.Upload : null;
    }
}
