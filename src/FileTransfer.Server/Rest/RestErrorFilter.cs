using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Protocol;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Turns what a REST endpoint throws into its answer, so that actions call the core without a
/// try/catch each and no mapping is written twice (the gRPC twin is the error interceptor): parameters
/// that did not bind are <see cref="ErrorReason.MalformedMessage"/>; a core
/// refusal, or Kestrel's own refusal while a body streams (too large, too slow, cut short), becomes
/// its problem (<see cref="ExceptionRefusals"/>, <see cref="ProblemWriter"/>), and a client that went
/// away an empty answer and a Debug line. Anything else passes on to the exception handler (500, logged).
/// </summary>
internal sealed partial class RestErrorFilter(ILogger<RestErrorFilter> logger) : IEndpointFilter
{
    public async ValueTask<object?> InvokeAsync(EndpointFilterInvocationContext context, EndpointFilterDelegate next)
    {
        if (context.HttpContext.Response.StatusCode == StatusCodes.Status400BadRequest)
        {
            // The endpoint's parameters did not bind (a query value not of its type, a missing route
            // value): the framework set 400 before running the filters and would answer nothing more,
            // both when it binds at run time and in the code it generates for a Native AOT build.
            return HttpErrors.Result(context.HttpContext, ErrorReason.MalformedMessage, UnreadParameter);
        }

        try
        {
            return await next(context);
        }
        catch (Exception ex) when (AnswerTo(ex, context.HttpContext, logger) is { } answer)
        {
            return answer;
        }
    }

    /// <summary>The detail of a refusal of parameters that did not bind.</summary>
    public const string UnreadParameter = "A parameter of the request could not be read: a query value that is not of its type (pageSize=many), or a name missing from the path.";

    /// <summary>The answer to <paramref name="exception"/> thrown by a REST endpoint, or null for the exception handler (500).</summary>
    public static IResult? AnswerTo(Exception exception, HttpContext http, ILogger logger)
    {
        if (http.RequestAborted.IsCancellationRequested)
        {
            // Whatever the answer, the client is gone: its transfer ended aborted.
            RequestTransfers.ClientLeft(http);
        }

        if (ExceptionRefusals.Of(exception) is { } refused)
        {
            return HttpErrors.Result(http, refused);
        }

        return ExceptionRefusals.IsClientAbort(exception, http) ? Aborted(http, logger) : null;
    }

    private static IResult Aborted(HttpContext context, ILogger logger)
    {
        LogAborted(logger, context.Request.Method, context.Request.Path);
        return Results.Empty;
    }

    [LoggerMessage(EventId = 41, Level = LogLevel.Debug, Message = "{Method} {Path} aborted by the client; nothing stored")]
    private static partial void LogAborted(ILogger logger, string method, string path);
}
