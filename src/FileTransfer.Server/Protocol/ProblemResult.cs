using FileTransfer.Core;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Infrastructure;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// A refusal as the result of an MVC action or a minimal endpoint: <see cref="ProblemWriter"/> writes
/// it when the result runs, exactly as middleware writes its own.
/// </summary>
internal sealed class ProblemResult(FileTransferException refusal, Action<ProblemDetails>? extend = null) : IActionResult, IResult, IStatusCodeActionResult
{
    public ErrorReason Reason => refusal.Reason;

    public int? StatusCode => HttpErrors.For(refusal.Reason).Status;

    public Task ExecuteResultAsync(ActionContext context) => ProblemWriter.WriteAsync(context.HttpContext, refusal, extend);

    public Task ExecuteAsync(HttpContext httpContext) => ProblemWriter.WriteAsync(httpContext, refusal, extend);

    /// <summary>
    /// The answer to an action whose parameters or JSON body model binding could not read
    /// (<c>[ApiController]</c>'s automatic 400): <see cref="ErrorReason.MalformedMessage"/>, with the
    /// framework's <c>errors</c> member naming each field.
    /// </summary>
    public static IActionResult ForInvalidModel(ActionContext context)
    {
        var errors = new ValidationProblemDetails(context.ModelState).Errors;
        return new ProblemResult(
            new FileTransferException(ErrorReason.MalformedMessage, "One or more parameters or the request body could not be read; errors names each."),
            problem => problem.Extensions["errors"] = errors);
    }
}
