using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Protocol;

namespace FileTransfer.Server.Security;

/// <summary>
/// 401, 403 and 429 written by authentication and the rate limiter: RFC 9457 problems with the
/// core's reason, or for a gRPC call the matching status (UNAUTHENTICATED, PERMISSION_DENIED,
/// RESOURCE_EXHAUSTED) with the same reason in its ErrorInfo.
/// </summary>
internal static class SecurityProblems
{
    /// <summary>Key in <c>AuthenticationProperties.Items</c> carrying why access was refused.</summary>
    public const string DetailItem = "ft:detail";

    /// <summary>
    /// RFC 6585 4 defines 429; ASP.NET Core's problem defaults have no type for it, so it is set
    /// here, like the framework's RFC 9110 types for 401 and 403.
    /// </summary>
    public const string TooManyRequestsType = "https://tools.ietf.org/html/rfc6585#section-4";

    public static async Task WriteAsync(HttpContext context, ErrorReason reason, string detail, TimeSpan? retryAfter = null)
    {
        HttpErrors.Remember(context, reason);
        var grpc = GrpcStatusResponse.IsGrpc(context);
        context.RequestServices.GetRequiredService<RefusedRequests>().Count(reason, grpc ? "grpc" : "rest");
        if (grpc)
        {
            await GrpcStatusResponse.WriteAsync(context, reason, detail, retryAfter);
            return;
        }

        var problem = HttpErrors.Problem(reason, detail);
        problem.Type = reason == ErrorReason.RateLimited ? TooManyRequestsType : null;
        context.Response.StatusCode = problem.Status!.Value;
        var problems = context.RequestServices.GetRequiredService<IProblemDetailsService>();
        await problems.WriteAsync(new ProblemDetailsContext { HttpContext = context, ProblemDetails = problem });
    }
}
