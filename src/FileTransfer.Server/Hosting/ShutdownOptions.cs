using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>How the server stops (SIGTERM, Ctrl+C), bound from the <c>Shutdown</c> section.</summary>
public sealed class ShutdownOptions
{
    public const string SectionName = "Shutdown";

    /// <summary>
    /// Seconds the server lets running transfers finish once told to stop, while it reports not ready
    /// and refuses new ones (503 with <c>Retry-After</c>, gRPC <c>UNAVAILABLE</c>); transfers still
    /// running then are cut, and what their upload sessions received is saved. 0 cuts them at once.
    /// </summary>
    [Range(0, 3600)]
    public int DrainSeconds { get; set; } = 30;

    internal TimeSpan Drain => TimeSpan.FromSeconds(DrainSeconds);
}

/// <summary>
/// Checks the attributes of <see cref="ShutdownOptions"/> with code generated at build time, not by reflection
/// at start as ValidateDataAnnotations would (docs/performance-notes.md, "Loading less at start").
/// </summary>
[OptionsValidator]
internal sealed partial class ShutdownOptionsAttributes : IValidateOptions<ShutdownOptions>;
