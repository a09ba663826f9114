using FileTransfer.Core;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace FileTransfer.Server.Hosting;

/// <summary>Ready when the storage answers (the root exists, the bucket can be reached): without it nothing can be served.</summary>
internal sealed class StorageHealthCheck(FileOperations files) : IHealthCheck
{
    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        await files.IsAvailableAsync(cancellationToken)
            ? HealthCheckResult.Healthy()
            : HealthCheckResult.Unhealthy("The storage does not answer.");
}
