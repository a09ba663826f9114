using FileTransfer.Core;
using Grpc.AspNetCore.Server;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// The answer when routing leaves nothing to run, given where routing's decision is known (the last
/// middleware, after the web page, Swagger UI and every other one passed the request on): no endpoint
/// for the path is <see cref="ErrorReason.RouteNotFound"/> (a gRPC call to an unknown service or method
/// too: Grpc.AspNetCore passes those on); routing's own rejection of the method (an endpoint of its
/// making, not a route, that sets 405 and <c>Allow</c>) is <see cref="ErrorReason.MethodNotAllowed"/>;
/// a gRPC method's route reached by a request that is no gRPC call is
/// <see cref="ErrorReason.UnsupportedMediaType"/>, which Grpc.AspNetCore would answer without a body.
/// Routing answers no other rejection here: no endpoint declares the types it consumes without one
/// of its route taking the rest (a test keeps it so).
/// </summary>
internal static class UnmatchedRequests
{
    public static IApplicationBuilder UseUnmatchedRequests(this IApplicationBuilder app) =>
        app.Use(static (context, next) => context.GetEndpoint() switch
        {
            null => ProblemWriter.WriteAsync(context, ErrorReason.RouteNotFound, "Nothing answers this path: the API is under /api (docs/rest-api.md), gRPC is filetransfer.v1.FileService."),
            RouteEndpoint route when route.Metadata.GetMetadata<GrpcMethodMetadata>() is not null && !GrpcStatusResponse.IsGrpc(context) =>
                ProblemWriter.WriteAsync(context, ErrorReason.UnsupportedMediaType, "This is a gRPC method: call it with Content-Type application/grpc over HTTP/2."),
            RouteEndpoint => next(context),
            var rejection => MethodNotAllowedAsync(context, rejection),
        });

    private static async Task MethodNotAllowedAsync(HttpContext context, Endpoint rejection)
    {
        // Routing's endpoint sets the Allow header (RFC 9110 15.5.6) from every method the path takes.
        if (rejection.RequestDelegate is { } allow)
        {
            await allow(context);
        }

        await ProblemWriter.WriteAsync(context, ErrorReason.MethodNotAllowed, $"This path does not take {context.Request.Method}; Allow lists the methods it takes.");
    }
}
