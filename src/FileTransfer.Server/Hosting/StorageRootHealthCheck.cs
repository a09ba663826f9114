using FileTransfer.Server.Storage;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace FileTransfer.Server.Hosting;

/// <summary>Ready when the storage root exists: without it nothing can be served.</summary>
internal sealed class StorageRootHealthCheck(StorageRoot root) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(Directory.Exists(root.FullPath)
            ? HealthCheckResult.Healthy()
            : HealthCheckResult.Unhealthy("The storage root is missing."));
}
