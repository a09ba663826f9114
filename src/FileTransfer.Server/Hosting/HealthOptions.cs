using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>The health endpoints' settings, bound from the <c>Health</c> section.</summary>
public sealed class HealthOptions
{
    public const string SectionName = "Health";

    /// <summary>
    /// Seconds the storage check (<c>/healthz</c>, <c>/healthz/ready</c>, gRPC health) waits for the
    /// storage to answer before it reports it unhealthy: a store that hangs must not hang the probe,
    /// whose own timeout (a load balancer's, Kubernetes' one second) would say less.
    /// </summary>
    [Range(1, 300)]
    public int StorageTimeoutSeconds { get; set; } = 5;
}

/// <summary>
/// Checks the attributes of <see cref="HealthOptions"/> with code generated at build time, not by reflection
/// at start as ValidateDataAnnotations would (docs/performance-notes.md, "Loading less at start").
/// </summary>
[OptionsValidator]
internal sealed partial class HealthOptionsAttributes : IValidateOptions<HealthOptions>;
