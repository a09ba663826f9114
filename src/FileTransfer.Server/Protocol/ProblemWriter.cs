using System.Globalization;
using FileTransfer.Core;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Infrastructure;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// The one writer of a refusal. An HTTP request gets <c>application/problem+json</c> (RFC 9457):
/// status, title and type from <see cref="HttpErrors"/>, <c>traceId</c> from the app's
/// <see cref="ProblemDetailsFactory"/>, the <c>reason</c> member always, <c>Retry-After</c> when
/// <see cref="RetryAdvice"/> says the reason is transient. A gRPC call answered before it reaches the
/// service gets the same reason as a gRPC status (<see cref="GrpcStatusResponse"/>). Every refusal is
/// also remembered on the request for the transfer log and metrics. Middleware, filters, result
/// executors and endpoints call it; actions return a <see cref="ProblemResult"/>, which calls it.
/// </summary>
internal static class ProblemWriter
{
    public const string ContentType = "application/problem+json";

    /// <summary>Writes the refusal for <paramref name="reason"/>; the response must not have started.</summary>
    public static Task WriteAsync(HttpContext context, ErrorReason reason, string detail, TimeSpan? retryAfter = null) =>
        WriteAsync(context, new FileTransferException(reason, detail) { RetryAfter = retryAfter });

    /// <summary>
    /// Writes <paramref name="refusal"/> with everything it carries: for a quota refusal the quota's
    /// usage and limits (<c>path</c>, <c>usedBytes</c>, <c>maxBytes</c>, <c>usedFiles</c>,
    /// <c>maxFiles</c>, as GET api/usage reports them); for an offset mismatch the
    /// session's offset in <c>Upload-Offset</c> and the problem's <c>expected-offset</c> /
    /// <c>provided-offset</c> members (the draft's Mismatching Offset). <paramref name="extend"/> adds
    /// members of its own (the fields model binding refused).
    /// </summary>
    public static async Task WriteAsync(HttpContext context, FileTransferException refusal, Action<ProblemDetails>? extend = null)
    {
        var reason = refusal.Reason;
        var retryAfter = RetryAdvice.For(reason, refusal.RetryAfter);
        HttpErrors.Remember(context, reason);
        if (GrpcStatusResponse.IsGrpc(context))
        {
            await GrpcStatusResponse.WriteAsync(context, reason, refusal.Message, retryAfter);
            return;
        }

        var response = context.Response;
        var (status, title) = HttpErrors.For(reason);
        var problem = context.RequestServices.GetRequiredService<ProblemDetailsFactory>()
            .CreateProblemDetails(context, status, title, HttpErrors.TypeFor(reason), refusal.Message);
        problem.Extensions[HttpErrors.ReasonMember] = reason.Code();
        if (refusal.ExpectedOffset is { } expected)
        {
            response.Headers[HttpErrors.UploadOffsetHeader] = expected.ToString(CultureInfo.InvariantCulture);
            problem.Extensions["expected-offset"] = expected;
            if (refusal.ProvidedOffset is { } provided)
            {
                problem.Extensions["provided-offset"] = provided;
            }
        }

        if (refusal.Quota is { } quota)
        {
            problem.Extensions["path"] = quota.Path;
            problem.Extensions["usedBytes"] = quota.UsedBytes;
            problem.Extensions["maxBytes"] = quota.MaxBytes;
            problem.Extensions["usedFiles"] = quota.UsedFiles;
            problem.Extensions["maxFiles"] = quota.MaxFiles;
        }

        extend?.Invoke(problem);
        response.StatusCode = status;
        if (retryAfter is { } delay)
        {
            response.Headers.RetryAfter = RetryAdvice.Seconds(delay);
        }

        // Whatever the request's Accept says (RFC 9110 12.1 lets an error answer in another type):
        // a client that asked for the file's bytes still learns why it did not get them.
        await response.WriteAsJsonAsync(problem, ProblemJson.Response.ProblemDetails, ContentType, context.RequestAborted);
    }
}
