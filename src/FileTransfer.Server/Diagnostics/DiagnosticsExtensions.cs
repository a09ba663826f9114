namespace FileTransfer.Server.Diagnostics;

/// <summary>Registration of transfer metrics, the per-transfer log line and <c>GET /metrics</c>.</summary>
internal static class DiagnosticsExtensions
{
    public static IServiceCollection AddTransferDiagnostics(this IServiceCollection services)
    {
        services.AddSingleton<MetricsListener>();
        return services;
    }

    /// <summary>Observes REST transfers; place it inside error handling so that it sees final status codes.</summary>
    public static WebApplication UseTransferDiagnostics(this WebApplication app)
    {
        // Created now so that the listener is subscribed before the first measurement.
        app.Services.GetRequiredService<MetricsListener>();
        app.UseMiddleware<RestTransferObserver>();
        app.MapGet("/metrics", (MetricsListener listener) =>
                Results.Text(PrometheusText.Write(listener.Snapshot()), PrometheusText.ContentType))
            .WithName("GetMetrics")
            .WithTags("Operations")
            .WithSummary("Prometheus metrics")
            .WithDescription("Transfer counters in the Prometheus text exposition format 0.0.4.")
            .Produces<string>(StatusCodes.Status200OK, "text/plain");
        return app;
    }
}
