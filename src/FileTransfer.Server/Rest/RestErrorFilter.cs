using FileTransfer.Server.Protocol;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Filters;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Turns what a REST action throws into its answer, so that actions call the core without a
/// try/catch each and no mapping is written twice (the gRPC twin is the error interceptor): a core
/// refusal, or Kestrel's own refusal while a body streams (too large, too slow, cut short), becomes
/// its problem (<see cref="ExceptionRefusals"/>, <see cref="ProblemWriter"/>), and a client that went
/// away an empty answer and a Debug line. Anything else passes on to the exception handler (500, logged).
/// </summary>
internal sealed partial class RestErrorFilter(ILogger<RestErrorFilter> logger) : IExceptionFilter
{
    public void OnException(ExceptionContext context)
    {
        var http = context.HttpContext;
        if (ExceptionRefusals.Of(context.Exception) is { } refused)
        {
            context.Result = HttpErrors.Result(http, refused);
        }
        else if (ExceptionRefusals.IsClientAbort(context.Exception, http))
        {
            context.Result = Aborted(http);
        }

        context.ExceptionHandled = context.Result is not null;
    }

    private EmptyResult Aborted(HttpContext context)
    {
        LogAborted(logger, context.Request.Method, context.Request.Path);
        return new EmptyResult();
    }

    [LoggerMessage(EventId = 41, Level = LogLevel.Debug, Message = "{Method} {Path} aborted by the client; nothing stored")]
    private static partial void LogAborted(ILogger logger, string method, string path);
}
