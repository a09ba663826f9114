using System.Text.Json;
using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Microsoft.AspNetCore.Mvc.Infrastructure;

namespace FileTransfer.Server.Rest;

/// <summary>
/// PhysicalFileResult answers a failed precondition (412, RFC 9110 13.1.1) and an unsatisfiable
/// range (416, RFC 9110 15.5.17) with headers only, and starts the response itself, so status
/// code pages never see it. This turns those into problem+json like every other error: the
/// content headers are switched just before they are sent, the body written after. The headers
/// that matter (Content-Range: bytes */size, ETag) stay.
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

    public static IApplicationBuilder UseProblemsForEmptyFileErrors(this IApplicationBuilder app) =>
        app.Use(async (context, next) =>
        {
            var converted = false;
            // Whoever starts the response (a wrapping body feature, or nobody until the end)
            // the headers are switched exactly once, before they go out.
            context.Response.OnStarting(() =>
            {
                converted |= TrySwitchToProblem(context.Response);
                return Task.CompletedTask;
            });

            await next(context);
            if (!context.Response.HasStarted)
            {
                converted |= TrySwitchToProblem(context.Response);
            }

            if (converted && !HttpMethods.IsHead(context.Request.Method))
            {
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
        });
}
