using FileTransfer.Core;
using Microsoft.AspNetCore.Diagnostics;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// What <c>UseExceptionHandler</c> answers for an exception nothing closer handled (middleware, a
/// minimal endpoint, a bug anywhere): the refusal it stands for (<see cref="ExceptionRefusals"/>), or
/// <see cref="ErrorReason.InternalError"/> (500) with nothing of the exception in it. The framework
/// logs the unforeseen ones with their stack trace; a client's refusal is no error of the server's
/// and is not logged as one (<see cref="SuppressDiagnostics"/>).
/// </summary>
internal sealed class ProblemExceptionHandler : IExceptionHandler
{
    public const string InternalErrorDetail = "The server failed to answer this request; the failure is logged.";

    public async ValueTask<bool> TryHandleAsync(HttpContext httpContext, Exception exception, CancellationToken cancellationToken)
    {
        if (ExceptionRefusals.Of(exception) is { } refused)
        {
            await ProblemWriter.WriteAsync(httpContext, refused);
        }
        else
        {
            await ProblemWriter.WriteAsync(httpContext, ErrorReason.InternalError, InternalErrorDetail);
        }

        return true;
    }

    /// <summary>For <c>ExceptionHandlerOptions.SuppressDiagnosticsCallback</c>: only a refusal goes unlogged.</summary>
    public static bool SuppressDiagnostics(ExceptionHandlerSuppressDiagnosticsContext context) =>
        ExceptionRefusals.Of(context.Exception) is not null;
}
