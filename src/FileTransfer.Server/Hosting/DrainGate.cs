using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Security;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// Counts the transfers running (requests to the REST API and the gRPC FileService, the same
/// requests the rate limits count: <see cref="RateLimiting.Covers"/>) for <see cref="ShutdownDrain"/>, and
/// once the server drains refuses new ones before they cost anything: 503 with <c>Retry-After</c> and
/// <c>Connection: close</c> (so that a keep-alive client reconnects, through its load balancer, to
/// another replica), gRPC <c>UNAVAILABLE</c> with its pushback; reason <c>STORAGE_UNAVAILABLE</c>, the
/// refusal every client already retries. Health probes, the page and the documents are not transfers.
/// </summary>
internal static class DrainGate
{
    private const ErrorReason Refusal = ErrorReason.StorageUnavailable;

    public static IApplicationBuilder UseDrainGate(this IApplicationBuilder app)
    {
        var drain = app.ApplicationServices.GetRequiredService<ShutdownDrain>();
        return app.Use(async (context, next) =>
        {
            if (!RateLimiting.Covers(context.Request.Path))
            {
                await next(context);
                return;
            }

            if (!drain.TryEnter())
            {
                await RefuseAsync(context);
                return;
            }

            try
            {
                await next(context);
            }
            finally
            {
                drain.Exit();
            }
        });
    }

    private static Task RefuseAsync(HttpContext context)
    {
        if (HttpProtocol.IsHttp11(context.Request.Protocol))
        {
            context.Response.Headers.Connection = "close";
        }

        return SecurityProblems.WriteAsync(
            context,
            Refusal,
            "The server is shutting down; try again (another replica can take the request).",
            RetryAdvice.For(Refusal));
    }
}
