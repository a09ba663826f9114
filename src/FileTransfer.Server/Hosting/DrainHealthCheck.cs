using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace FileTransfer.Server.Hosting;

/// <summary>Unhealthy once the server drains before it stops (<see cref="ShutdownDrain"/>): a load balancer then sends new transfers elsewhere.</summary>
internal sealed class DrainHealthCheck(ShutdownDrain drain) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(drain.IsDraining ? HealthCheckResult.Unhealthy("The server is shutting down.") : HealthCheckResult.Healthy());
}
