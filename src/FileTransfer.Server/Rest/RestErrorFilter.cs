using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Protocol;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Turns what a REST endpoint throws into its answer, so that actions call the core without a
/// try/catch each and no mapping is written twice (the gRPC twin is the error interceptor): a core
/// refusal, or Kestrel's own refusal while a body streams (too large, too slow, cut short), becomes
/// its problem (<see cref="ExceptionRefusals"/>, <see cref="ProblemWriter"/>), and a client that went
/// away an empty answer and a Debug line. Anything else passes on to the exception handler (500, logged).
/// </summary>
internal sealed partial class RestErrorFilter(ILogger<RestErrorFilter> logger) : IEndpointFilter
{
    public async ValueTask<object?> InvokeAsync(EndpointFilterInvocationContext context, EndpointFilterDelegate next)
    {
        try
        {
            return await next(context);
        }
        catch (Exception ex) when (AnswerTo(ex, context.HttpContext, logger) is { } answer)
        {
            return answer;
        }
    }

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
