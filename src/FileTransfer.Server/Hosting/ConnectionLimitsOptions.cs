using System.ComponentModel.DataAnnotations;
using System.Diagnostics.CodeAnalysis;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// Kestrel's defences against idle, slow and too many connections, bound from the <c>Connections</c>
/// section. <see cref="KestrelTuning"/> applies them; <c>Kestrel:Limits</c> still overrides each
/// Kestrel limit. The request body size limit is not here: it stays at Kestrel's default for every
/// endpoint except the uploads, which lift it per request themselves.
/// </summary>
public sealed class ConnectionLimitsOptions
{
    public const string SectionName = "Connections";

    // RangeAttribute(Type, string, string) is marked RequiresUnreferencedCode for its reflection path
    // (a TypeConverter for TimeSpan), taken only when
    // something reads the attributes by reflection (ValidateDataAnnotations, which warns itself). Nothing
    // does: ConnectionLimitsOptionsAttributes, generated at build time, checks them with its own copies, and
    // the AOT compiler reports no use of these attributes in the published server.
    private const string GeneratedCheck = "Checked by the generated ConnectionLimitsOptionsAttributes; nothing reads these attributes by reflection.";

    /// <summary>An idle keep-alive connection (HTTP/1.1 between requests, HTTP/2 without streams) is closed after this.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "1.00:00:00")]
    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = GeneratedCheck)]
    public TimeSpan KeepAliveTimeout { get; set; } = TimeSpan.FromMinutes(1);

    /// <summary>All request headers must arrive within this; the slowloris attack sends them a byte at a time.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "01:00:00")]
    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = GeneratedCheck)]
    public TimeSpan RequestHeadersTimeout { get; set; } = TimeSpan.FromSeconds(15);

    /// <summary>
    /// Slowest average rate, in bytes per second, at which a request body may arrive and a response
    /// be read; below it (after the grace period) the connection is closed. Kestrel only measures
    /// while the server waits on the client, so a busy disk does not count against an upload.
    /// 0 turns the check off.
    /// </summary>
    [Range(0, 1_000_000_000)]
    public double MinDataRateBytesPerSecond { get; set; } = 1024;

    /// <summary>Time a transfer gets before the minimum rate applies (TCP slow start, a client opening a file).</summary>
    [Range(typeof(TimeSpan), "00:00:02", "01:00:00")]
    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = GeneratedCheck)]
    public TimeSpan MinDataRateGracePeriod { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// A new connection that sends nothing (no request line, HTTP/2 preface or TLS hello) within
    /// this is closed. Kestrel would otherwise keep it for <see cref="KeepAliveTimeout"/>; keep-alive
    /// between requests is not affected.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:01", "01:00:00")]
    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = GeneratedCheck)]
    public TimeSpan FirstByteTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// Most connections open at once over every endpoint; a further one waits in the kernel's accept
    /// queue until one closes. Unset: derived from the process's descriptor limit (see
    /// <see cref="DescriptorBudget"/>). 0: no cap.
    /// </summary>
    [Range(0, long.MaxValue)]
    public long? MaxConnections { get; set; }

    /// <summary>
    /// A fixed ceiling on the connections one client address (an IPv4 address, or an IPv6 /64) may
    /// hold at once. Whatever it is, under a connection cap an address also gets a further
    /// connection only while it holds less than a quarter of the slots still free (see
    /// <see cref="ConnectionGate"/>); a connection over either is closed as soon as it is accepted.
    /// Unset: only that share. 0: no per-client limit at all (behind a reverse proxy, where every
    /// client has the proxy's address: the proxy limits each client instead).
    /// </summary>
    [Range(0, int.MaxValue)]
    public int? MaxConnectionsPerClient { get; set; }
}

/// <summary>
/// Checks the attributes of <see cref="ConnectionLimitsOptions"/> with code generated at build time, not by reflection
/// at start as ValidateDataAnnotations would (docs/performance-notes.md, "Loading less at start").
/// </summary>
[OptionsValidator]
internal sealed partial class ConnectionLimitsOptionsAttributes : IValidateOptions<ConnectionLimitsOptions>;
