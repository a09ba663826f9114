using FileTransfer.Server.Grpc;
using Grpc.Core;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Security;

/// <summary>
/// 401, 403 and 429 written by authentication and the rate limiter: RFC 9457 problems, or for a
/// gRPC call the matching status (UNAUTHENTICATED, PERMISSION_DENIED, RESOURCE_EXHAUSTED).
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

    public static async Task WriteAsync(HttpContext context, int status, string title, string detail, TimeSpan? retryAfter = null)
    {
        if (GrpcStatusResponse.IsGrpc(context))
        {
            var (code, reason) = status switch
            {
                StatusCodes.Status401Unauthorized => (StatusCode.Unauthenticated, GrpcErrors.Reasons.Unauthenticated),
                StatusCodes.Status403Forbidden => (StatusCode.PermissionDenied, GrpcErrors.Reasons.PermissionDenied),
                _ => (StatusCode.ResourceExhausted, GrpcErrors.Reasons.RateLimited),
            };
            await GrpcStatusResponse.WriteAsync(context, code, reason, detail, retryAfter);
            return;
        }

        context.Response.StatusCode = status;
        var problems = context.RequestServices.GetRequiredService<IProblemDetailsService>();
        await problems.WriteAsync(new ProblemDetailsContext
        {
            HttpContext = context,
            ProblemDetails = new ProblemDetails
            {
                Status = status,
                Title = title,
                Detail = detail,
                Type = status == StatusCodes.Status429TooManyRequests ? TooManyRequestsType : null,
            },
        });
    }
}
