using System.Globalization;
using System.Text;
using FileTransfer.Core;
using Google.Protobuf;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// Answers a gRPC call from middleware, before it reaches the service (authentication, limits),
/// with a proper gRPC status instead of an HTTP error page: a "Trailers-Only" response (HTTP 200,
/// <c>application/grpc</c>, <c>grpc-status</c> and <c>grpc-message</c> in the only HEADERS frame;
/// gRPC over HTTP/2 protocol spec). Every gRPC stack then reports the precise status code.
/// </summary>
internal static class GrpcStatusResponse
{
    /// <summary>gRPC's twin of Retry-After (gRPC A6 retry design): milliseconds before a retry.</summary>
    public const string RetryPushbackTrailer = "grpc-retry-pushback-ms";

    /// <summary>True for a gRPC call (any <c>application/grpc</c> content type, e.g. <c>application/grpc+proto</c>).</summary>
    public static bool IsGrpc(HttpContext context) =>
        context.Request.ContentType is { } type && type.StartsWith("application/grpc", StringComparison.OrdinalIgnoreCase);

    public static Task WriteAsync(HttpContext context, ErrorReason reason, string message, TimeSpan? retryAfter = null)
    {
        retryAfter = RetryAdvice.For(reason, retryAfter);
        var response = context.Response;
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = "application/grpc";
        response.Headers["grpc-status"] = ((int)GrpcErrors.CodeFor(reason)).ToString(CultureInfo.InvariantCulture);
        response.Headers["grpc-message"] = PercentEncode(message);

        // Binary metadata travels base64 encoded; clients decode it into the google.rpc.Status.
        var status = GrpcErrors.Status(reason, message, retryAfter);
        response.Headers["grpc-status-details-bin"] = Convert.ToBase64String(status.ToByteArray());
        if (retryAfter is { } delay)
        {
            response.Headers[RetryPushbackTrailer] = ((long)delay.TotalMilliseconds).ToString(CultureInfo.InvariantCulture);
        }

        return response.CompleteAsync();
    }

    // grpc-message: UTF-8, then every byte outside printable ASCII, and '%', percent-encoded.
    private static string PercentEncode(string message)
    {
        var text = new StringBuilder(message.Length);
        foreach (var b in Encoding.UTF8.GetBytes(message))
        {
            if (b is >= 0x20 and <= 0x7E and not (byte)'%')
            {
                text.Append((char)b);
            }
            else
            {
                text.Append('%').Append(b.ToString("X2", CultureInfo.InvariantCulture));
            }
        }

        return text.ToString();
    }
}
