using FileTransfer.Core;
using FileTransfer.Server.Protocol;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// Measures REST transfers without changing how they are served: a download's bytes are reported by
/// the code that sends them, as each chunk is flushed (<see cref="TransferFeature"/>); an upload
/// reads a counting request body. Each transfer ends with one metrics update and one log line, whose
/// outcome comes from the core's reason where the request failed for one (<see cref="TransferOutcome.Of"/>),
/// the same table the gRPC observer uses.
/// </summary>
internal sealed class RestTransferObserver(RequestDelegate next, TransferMetrics metrics, ILogger<RestTransferObserver> logger)
{
    public const string Protocol = "rest";
    private static readonly PathString FilesPath = new("/" + Routes.Files);

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
        int? status = null;
        var requestBody = context.Request.Body;
        if (direction == TransferDirection.Download)
        {
            context.Features.Set(new TransferFeature(transfer));
        }
        else
        {
            context.Request.Body = new CountingStream(requestBody, transfer);
        }

        try
        {
            await next(context);

            // A client that leaves mid-body may not have tripped RequestAborted yet when the send
            // loop notices the closed connection; fewer bytes than Content-Length says the same.
            var cutShort = direction == TransferDirection.Download
                && context.Response.StatusCode is StatusCodes.Status200OK or StatusCodes.Status206PartialContent
                && context.Response.ContentLength is { } expected
                && transfer.Bytes < expected;
            outcome = context.RequestAborted.IsCancellationRequested || cutShort ? TransferOutcome.Aborted : OutcomeOf(context);
        }
        catch (Exception) when (context.RequestAborted.IsCancellationRequested)
        {
            outcome = TransferOutcome.Aborted;
            throw;
        }
        catch (Exception) when (!context.Response.HasStarted)
        {
            // Unhandled: the exception handler answers 500, which is what the log must say (the
            // response still reads 200 here). Once a response has started, the client got its status and a cut.
            status = StatusCodes.Status500InternalServerError;
            throw;
        }
        finally
        {
            context.Features.Set<TransferFeature>(null);
            context.Request.Body = requestBody;
            transfer.Complete(outcome);
            TransferLog.Completed(logger, transfer, name, context.Request.Protocol, outcome,
                (status ?? context.Response.StatusCode).ToString(System.Globalization.CultureInfo.InvariantCulture), HttpErrors.ReasonOf(context));
        }
    }

    // The core's reason decides where there is one; otherwise the status code (304, a route's 404, a 5xx).
    private static string OutcomeOf(HttpContext context) => HttpErrors.ReasonOf(context) is { } reason
        ? TransferOutcome.Of(reason)
        : context.Response.StatusCode switch
        {
            StatusCodes.Status304NotModified => TransferOutcome.NotModified,
            >= 500 => TransferOutcome.Failed,
            >= 400 => TransferOutcome.Rejected,
            _ => TransferOutcome.Success,
        };

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
