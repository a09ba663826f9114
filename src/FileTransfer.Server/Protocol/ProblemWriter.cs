using System.Diagnostics;
using System.Globalization;
using FileTransfer.Core;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// The one writer of a refusal. An HTTP request gets <c>application/problem+json</c> (RFC 9457):
/// status, title and type from <see cref="HttpErrors"/> (else the framework's RFC 9110 section for the
/// status), <c>traceId</c>, the <c>reason</c> member always, <c>Retry-After</c> when
/// <see cref="RetryAdvice"/> says the reason is transient. A gRPC call answered before it reaches the
/// service gets the same reason as a gRPC status (<see cref="GrpcStatusResponse"/>). Every refusal is
/// also remembered on the request for the transfer log and metrics. Middleware, filters, result
/// executors and endpoints call it; endpoints return a <see cref="ProblemResult"/>, which calls it.
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
        // The framework's defaults for the status (its RFC 9110 section as the type), and the trace id
        // as MVC's problem factory gave it: the caller's trace where one is traced, else Kestrel's request id.
        var problem = TypedResults.Problem(refusal.Message, statusCode: status, title: title, type: HttpErrors.TypeFor(reason)).ProblemDetails;
        problem.Extensions["traceId"] = Activity.Current?.Id ?? context.TraceIdentifier;
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
