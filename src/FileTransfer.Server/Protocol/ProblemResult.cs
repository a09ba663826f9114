using FileTransfer.Core;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// A refusal as the result of an endpoint: <see cref="ProblemWriter"/> writes it when the result
/// runs, exactly as middleware writes its own. <paramref name="extend"/> adds members of its own
/// (the fields of a request body that were refused).
/// </summary>
internal sealed class ProblemResult(FileTransferException refusal, Action<ProblemDetails>? extend = null) : IResult, IStatusCodeHttpResult
{
    public ErrorReason Reason => refusal.Reason;

    public int? StatusCode => HttpErrors.For(refusal.Reason).Status;

    public Task ExecuteAsync(HttpContext httpContext) => ProblemWriter.WriteAsync(httpContext, refusal, extend);
}
