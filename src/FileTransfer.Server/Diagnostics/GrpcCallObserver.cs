using System.Diagnostics;
using Grpc.AspNetCore.Server;
using Grpc.Core;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Primitives;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// Times every call to a gRPC endpoint and records it with its final gRPC status
/// (<see cref="RpcServerMetrics"/>). Middleware rather than an interceptor: an interceptor never
/// sees the calls refused before the service runs (authentication, rate limits, a request message
/// that does not parse), and those are the failures worth counting.
/// </summary>
internal sealed class GrpcCallObserver(RequestDelegate next, RpcServerMetrics metrics)
{
    private const string StatusHeader = "grpc-status";

    public async Task InvokeAsync(HttpContext context)
    {
        if (context.GetEndpoint()?.Metadata.GetMetadata<GrpcMethodMetadata>() is not { } grpc)
        {
            await next(context);
            return;
        }

        var started = Stopwatch.GetTimestamp();
        try
        {
            await next(context);
        }
        finally
        {
            metrics.Record(Stopwatch.GetElapsedTime(started), grpc.Method, StatusOf(context));
        }
    }

    /// <summary>
    /// The status the call ended with: from the trailers, or the headers of a Trailers-Only
    /// response; without one, the HTTP status as gRPC clients map it (gRPC doc
    /// "http-grpc-status-mapping").
    /// </summary>
    internal static StatusCode StatusOf(HttpContext context)
    {
        if (context.Features.Get<IHttpResponseTrailersFeature>()?.Trailers is { } trailers && Parse(trailers[StatusHeader]) is { } trailer)
        {
            return trailer;
        }

        if (Parse(context.Response.Headers[StatusHeader]) is { } header)
        {
            return header;
        }

        if (context.RequestAborted.IsCancellationRequested)
        {
            return StatusCode.Cancelled;
        }

        return context.Response.StatusCode switch
        {
            StatusCodes.Status400BadRequest => StatusCode.Internal,
            StatusCodes.Status401Unauthorized => StatusCode.Unauthenticated,
            StatusCodes.Status403Forbidden => StatusCode.PermissionDenied,
            StatusCodes.Status404NotFound => StatusCode.Unimplemented,
            StatusCodes.Status429TooManyRequests or StatusCodes.Status502BadGateway
                or StatusCodes.Status503ServiceUnavailable or StatusCodes.Status504GatewayTimeout => StatusCode.Unavailable,
            _ => StatusCode.Unknown,
        };
    }

    private static StatusCode? Parse(StringValues value) =>
        int.TryParse(value.ToString(), System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var code)
            ? (StatusCode)code
            : null;
}
