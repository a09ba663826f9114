using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Protocol;

namespace FileTransfer.Server.Security;

/// <summary>
/// 401, 403 and 429 written by authentication and the rate limiter, through the one writer
/// (<see cref="ProblemWriter"/>): RFC 9457 problems with the core's reason, or for a gRPC call the
/// matching status (UNAUTHENTICATED, PERMISSION_DENIED, RESOURCE_EXHAUSTED) with the same reason in
/// its ErrorInfo.
/// </summary>
internal static class SecurityProblems
{
    /// <summary>Key in <c>AuthenticationProperties.Items</c> carrying why access was refused.</summary>
    public const string DetailItem = "ft:detail";

    public static Task WriteAsync(HttpContext context, ErrorReason reason, string detail, TimeSpan? retryAfter = null)
    {
        // A refusal at the door writes no per-request line (a flood of them would flood the log): it is counted.
        context.RequestServices.GetRequiredService<RefusedRequests>().Count(reason, GrpcStatusResponse.IsGrpc(context) ? "grpc" : "rest");
        return ProblemWriter.WriteAsync(context, reason, detail, retryAfter);
    }
}
