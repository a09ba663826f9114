using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>
/// Per-client limits on the API (<c>/api/...</c>), bound from the <c>RateLimit</c> section. A client
/// is its API key, or its IP address when it has none (anonymous reads, signed links).
/// </summary>
public sealed class RateLimitOptions
{
    public const string SectionName = "RateLimit";

    /// <summary>Turns both limits off (e.g. behind a proxy that limits already).</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>Requests a client may start per second on average (token bucket refill).</summary>
    [Range(1, 1_000_000)]
    public int PermitsPerSecond { get; set; } = 50;

    /// <summary>Requests a client may start at once after being idle (token bucket size).</summary>
    [Range(1, 1_000_000)]
    public int Burst { get; set; } = 100;

    /// <summary>
    /// Requests a client may have in flight at the same time: each running download or upload
    /// holds one until it ends. Download managers open 4-16 connections; 16 leaves them room.
    /// </summary>
    [Range(1, 100_000)]
    public int ConcurrentTransfers { get; set; } = 16;
}

/// <summary>
/// Checks the attributes of <see cref="RateLimitOptions"/> with code generated at build time, not by reflection
/// at start as ValidateDataAnnotations would (docs/performance-notes.md, "Loading less at start").
/// </summary>
[OptionsValidator]
internal sealed partial class RateLimitOptionsAttributes : IValidateOptions<RateLimitOptions>;
