using System.Text.Json;
using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Microsoft.AspNetCore.Mvc.Infrastructure;

namespace FileTransfer.Server.Rest;

/// <summary>
/// PhysicalFileResult's semantics answer a failed precondition (412, RFC 9110 13.1.1) and an
/// unsatisfiable range (416, RFC 9110 15.5.17) with headers only, and with the file's content type,
/// so status code pages never see them. The download executor turns those into problem+json like
/// every other error, as soon as the semantics have decided (no per-request hook on every response):
/// the content headers are switched, the body written. The headers that matter (Content-Range:
/// bytes */size, ETag) stay.
/// </summary>
internal static class EmptyErrorResponses
{
    private const string ProblemJson = "application/problem+json";
    private static readonly JsonSerializerOptions Web = new(JsonSerializerDefaults.Web);

    private static bool TrySwitchToProblem(HttpResponse response)
    {
        if (response.StatusCode is not (StatusCodes.Status412PreconditionFailed or StatusCodes.Status416RangeNotSatisfiable)
            || response.ContentLength is not (0 or null)
            || response.ContentType?.StartsWith(ProblemJson, StringComparison.Ordinal) == true)
        {
            return false;
        }

        response.ContentLength = null;
        response.ContentType = ProblemJson;
        HttpErrors.Remember(response.HttpContext, ReasonFor(response.StatusCode));
        return true;
    }

    // The core's reasons for the two answers: the same strings gRPC gives a stale if_match and an offset past the end.
    private static ErrorReason ReasonFor(int status) =>
        status == StatusCodes.Status416RangeNotSatisfiable ? ErrorReason.OffsetPastEnd : ErrorReason.EtagMismatch;

    /// <summary>Answers a 412 or 416 the file semantics decided with a problem (the body only for GET); anything else is left as it is.</summary>
    public static async Task AnswerAsync(HttpContext context)
    {
        if (context.Response.HasStarted || !TrySwitchToProblem(context.Response) || HttpMethods.IsHead(context.Request.Method))
        {
            return;
        }

        var status = context.Response.StatusCode;
        var reason = ReasonFor(status);
        var problem = context.RequestServices.GetRequiredService<ProblemDetailsFactory>().CreateProblemDetails(
            context,
            status,
            HttpErrors.For(reason).Title,
            detail: status == StatusCodes.Status416RangeNotSatisfiable
                ? "The range starts past the end of the file; Content-Range gives its size."
                : "The file does not match the If-Match / If-Unmodified-Since condition.");
        problem.Extensions[HttpErrors.ReasonMember] = reason.Code();
        await JsonSerializer.SerializeAsync(context.Response.Body, problem, Web, context.RequestAborted);
    }
}
