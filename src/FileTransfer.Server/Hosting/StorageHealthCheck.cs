using FileTransfer.Core;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// Healthy when the storage answers (the root exists, the bucket can be reached) within
/// <see cref="HealthOptions.StorageTimeoutSeconds"/>: without it nothing can be served, and a store
/// that hangs (a paused gateway, a partition) must make the probe say so, not hang it.
/// </summary>
internal sealed class StorageHealthCheck(FileOperations files, IOptions<HealthOptions> options) : IHealthCheck
{
    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        var timeout = TimeSpan.FromSeconds(options.Value.StorageTimeoutSeconds);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(timeout);
        try
        {
            return await files.IsAvailableAsync(deadline.Token)
                ? HealthCheckResult.Healthy()
                : HealthCheckResult.Unhealthy("The storage does not answer.");
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return HealthCheckResult.Unhealthy($"The storage did not answer within {timeout.TotalSeconds:0} s.");
        }
    }
}
