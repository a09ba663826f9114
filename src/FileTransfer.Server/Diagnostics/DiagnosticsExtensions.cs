using FileTransfer.Core;
using Microsoft.Extensions.Diagnostics.Metrics;
using OpenTelemetry.Exporter;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// Registration of the metrics (OpenTelemetry with its Prometheus exporter at <c>GET /metrics</c>),
/// the gRPC call durations, the per-transfer log line and the batched console logger.
/// </summary>
internal static class DiagnosticsExtensions
{
    public const string MetricsPath = "/metrics";

    /// <summary>The name OpenTelemetry registers its <see cref="IMetricsListener"/> under.</summary>
    private const string OpenTelemetryListener = "OpenTelemetry";

    /// <summary>The runtime's own meter (GC, thread pool, JIT, exceptions): one per process.</summary>
    private const string RuntimeMeter = "System.Runtime";

    /// <summary>ASP.NET Core's meters: Hosting (HTTP requests), Server.Kestrel (connections), Routing, Diagnostics, RateLimiting, Authentication, Authorization.</summary>
    private const string AspNetCoreMeters = "Microsoft.AspNetCore";

    /// <summary>
    /// The runtime's gauges whose names end in ".count": Prometheus keeps the <c>_count</c> suffix
    /// for histograms and summaries (promtool check metrics fails on them), and none of the three
    /// (CPUs, timers, loaded assemblies) is worth a name of our own.
    /// </summary>
    internal static readonly string[] Dropped = ["dotnet.process.cpu.count", "dotnet.timer.count", "dotnet.assembly.count"];

    public static IServiceCollection AddTransferDiagnostics(this IServiceCollection services)
    {
        // Subscriptions go through the host's metrics rules rather than MeterProviderBuilder.AddMeter,
        // which matches meters by name in the whole process: Local takes only the meters this host's
        // IMeterFactory created, so two hosts in one process (tests) never see each other's numbers.
        // The runtime's meter is created once per process (Global), and is the same for every host.
        services.AddMetrics(metrics => metrics
            .EnableMetrics(TransferMetrics.MeterName, listenerName: OpenTelemetryListener, scopes: MeterScope.Local)
            .EnableMetrics(AspNetCoreMeters, listenerName: OpenTelemetryListener, scopes: MeterScope.Local)
            .EnableMetrics(RuntimeMeter, listenerName: OpenTelemetryListener, scopes: MeterScope.Global));
        services.AddOpenTelemetry()
            .ConfigureResource(resource => resource.AddService(TransferMetrics.MeterName))
            .WithMetrics(metrics =>
            {
                foreach (var instrument in Dropped)
                {
                    metrics.AddView(instrument, MetricStreamConfiguration.Drop);
                }

                metrics.AddPrometheusExporter(ConfigureExporter);
            });
        services.AddSingleton<RpcServerMetrics>();
        services.AddSingleton<TransferOrigins>();
        services.AddBatchedConsoleLogging();
        return services;
    }

    /// <summary>
    /// Times gRPC calls and maps <c>GET /metrics</c>; place it inside error handling, so that it sees
    /// final status codes, and outside authentication and rate limiting, so that the calls those
    /// refuse are measured too. Transfers are counted by the core, where their bytes move (<see cref="TransferOrigins"/>).
    /// </summary>
    public static WebApplication UseTransferDiagnostics(this WebApplication app)
    {
        app.UseMiddleware<GrpcCallObserver>();

        // The exporter's own middleware behind an ordinary GET endpoint: the OpenAPI document
        // describes it, and it answers GET only.
        var scrape = ((IEndpointRouteBuilder)app).CreateApplicationBuilder()
            .UseOpenTelemetryPrometheusScrapingEndpoint(_ => true)
            .Build();
        app.MapGet(MetricsPath, (Func<HttpContext, Task>)(context => scrape(context)))
            .WithName("GetMetrics")
            .WithTags("Operations")
            .WithSummary("Prometheus metrics")
            .WithDescription("ASP.NET Core, Kestrel, runtime, gRPC call and transfer metrics in the Prometheus text exposition format 0.0.4 (OpenTelemetry's Prometheus exporter).")
            .Produces<string>(StatusCodes.Status200OK, "text/plain");
        return app;
    }

    private static void ConfigureExporter(PrometheusAspNetCoreOptions options)
    {
        // Every scrape is collected afresh: the default 300 ms cache would answer a scrape right
        // after a transfer with numbers from before it.
        options.ScrapeResponseCacheDurationMilliseconds = 0;

        // The metric names already say where a series comes from (http_, kestrel_, dotnet_, rpc_,
        // filetransfer_); an otel_scope_name label on every series would only add to each line.
        options.ScopeInfoEnabled = false;
    }
}
