using System.ComponentModel.DataAnnotations;

namespace FileTransfer.Server.Security;

/// <summary>
/// Kestrel's defences against slow and idle clients, bound from the <c>Connections</c> section.
/// The request body size limit is not here: it stays at Kestrel's default for every endpoint
/// except the uploads, which lift it themselves.
/// </summary>
public sealed class ConnectionLimitsOptions
{
    public const string SectionName = "Connections";

    /// <summary>An idle keep-alive connection (HTTP/1.1 between requests, HTTP/2 without streams) is closed after this.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "1.00:00:00")]
    public TimeSpan KeepAliveTimeout { get; set; } = TimeSpan.FromMinutes(1);

    /// <summary>All request headers must arrive within this; the slowloris attack sends them a byte at a time.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "01:00:00")]
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
    public TimeSpan MinDataRateGracePeriod { get; set; } = TimeSpan.FromSeconds(30);
}
