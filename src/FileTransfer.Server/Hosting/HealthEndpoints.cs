using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// The health endpoints, for people and orchestrators: <c>/healthz/live</c> (the process answers; no
/// check, so a store outage never gets the server restarted), <c>/healthz/ready</c> (the storage
/// answers and the server is not draining: a load balancer sends it transfers), and <c>/healthz</c>,
/// which reports the storage as it always did. The gRPC health service's overall status is readiness.
/// Also the drain before a stop (<see cref="ShutdownDrain"/>).
/// </summary>
internal static class HealthEndpoints
{
    public const string Health = "/healthz";
    public const string Live = "/healthz/live";
    public const string Ready = "/healthz/ready";

    /// <summary>The checks <see cref="Ready"/> and the gRPC health service run.</summary>
    public const string ReadyTag = "ready";

    private const string StorageTag = "storage";

    public static IServiceCollection AddFileTransferHealth(this IServiceCollection services)
    {
        services.AddOptions<HealthOptions>().BindConfiguration(HealthOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<HealthOptions>, HealthOptionsAttributes>();
        services.AddOptions<ShutdownOptions>().BindConfiguration(ShutdownOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<ShutdownOptions>, ShutdownOptionsAttributes>();
        services.AddSingleton<ShutdownDrain>();
        services.AddHostedService(sp => sp.GetRequiredService<ShutdownDrain>());

        // The host's stop holds the drain, the grace of the transfers it cuts, and Kestrel's own stop.
        services.AddOptions<HostOptions>().PostConfigure<IOptions<ShutdownOptions>>((host, shutdown) =>
            host.ShutdownTimeout = TimeSpan.FromTicks(Math.Max(host.ShutdownTimeout.Ticks, (shutdown.Value.Drain + ShutdownDrain.SaveGrace + TimeSpan.FromSeconds(5)).Ticks)));

        services.AddHealthChecks()
            .AddCheck<StorageHealthCheck>("storage", tags: [StorageTag, ReadyTag])
            .AddCheck<DrainHealthCheck>("draining", tags: [ReadyTag]);

        // After the gRPC health service's own default (every check): its overall status is readiness.
        services.PostConfigure<global::Grpc.AspNetCore.HealthChecks.GrpcHealthChecksOptions>(options =>
            options.Services.Map("", check => check.Tags.Contains(ReadyTag)));
        return services;
    }

    public static void MapFileTransferHealth(this WebApplication app)
    {
        app.MapHealthChecks(Health, new HealthCheckOptions { Predicate = check => check.Tags.Contains(StorageTag) });
        app.MapHealthChecks(Live, new HealthCheckOptions { Predicate = _ => false });
        app.MapHealthChecks(Ready, new HealthCheckOptions { Predicate = check => check.Tags.Contains(ReadyTag) });
    }
}
