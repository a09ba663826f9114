using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Protocol;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Filters;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Turns what a REST action throws into its answer, so that actions call the core without a
/// try/catch each and no mapping is written twice (the gRPC twin is the error interceptor): a core
/// refusal becomes its problem (<see cref="HttpErrors"/>), Kestrel's own refusals while a body
/// streams (too large, too slow, cut short) theirs, and a client that went away an empty answer and
/// a Debug line. Anything else passes on to the exception handler (500, logged).
/// </summary>
internal sealed partial class RestErrorFilter(ILogger<RestErrorFilter> logger) : IExceptionFilter
{
    public void OnException(ExceptionContext context)
    {
        context.Result = AnswerTo(context.Exception, context.HttpContext, logger);
        context.ExceptionHandled = context.Result is not null;
    }

    /// <summary>The answer to <paramref name="exception"/> thrown by a REST endpoint, or null for the exception handler (500).</summary>
    public static IActionResult? AnswerTo(Exception exception, HttpContext http, ILogger logger)
    {
        if (http.RequestAborted.IsCancellationRequested)
        {
            // Whatever the answer, the client is gone: its transfer ended aborted.
            RequestTransfers.ClientLeft(http);
        }

        return Answer(exception, http, logger);
    }

    private static IActionResult? Answer(Exception exception, HttpContext http, ILogger logger) => exception switch
    {
        FileTransferException refused => HttpErrors.Result(http, refused),
        VersionGoneException gone => HttpErrors.Result(http, gone.ToRefusal().Reason, gone.ToRefusal().Message),
        BadHttpRequestException bad => HttpErrors.Result(http, ReasonOf(bad), bad.Message),
        _ when IsClientAbort(exception, http) => Aborted(http, logger),
        _ => null,
    };

    /// <summary>The client went away (disconnect, reset, cancel): nobody is left to answer.</summary>
    public static bool IsClientAbort(Exception exception, HttpContext context) =>
        exception is OperationCanceledException or IOException && context.RequestAborted.IsCancellationRequested;

    // Kestrel's refusals of a body: too large (MaxRequestBodySize), too slow (MinRequestBodyDataRate), or malformed / cut short.
    private static ErrorReason ReasonOf(BadHttpRequestException exception) => exception.StatusCode switch
    {
        StatusCodes.Status413PayloadTooLarge => ErrorReason.FileTooLarge,
        StatusCodes.Status408RequestTimeout => ErrorReason.UploadIdle,
        _ => ErrorReason.InvalidUploadStream,
    };

    private static EmptyResult Aborted(HttpContext context, ILogger logger)
    {
        LogAborted(logger, context.Request.Method, context.Request.Path);
        return new EmptyResult();
    }

    [LoggerMessage(EventId = 41, Level = LogLevel.Debug, Message = "{Method} {Path} aborted by the client; nothing stored")]
    private static partial void LogAborted(ILogger logger, string method, string path);
}
