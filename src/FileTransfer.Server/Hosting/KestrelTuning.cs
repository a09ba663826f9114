using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// The one place the product configures Kestrel, in this order:
/// <list type="number">
/// <item>product defaults, each one measured (benchmarks/RESULTS.md) or derived (the connection cap, <see cref="DescriptorBudget"/>);</item>
/// <item>the <c>Connections</c> section (<see cref="ConnectionLimitsOptions"/>);</item>
/// <item><c>Kestrel:Limits</c> and <c>Kestrel:Sockets</c> from configuration, bound as post-configuration, so they win
/// over the above and over any other registration that configures Kestrel, whenever it was made.</item>
/// </list>
/// The request body limit is the exception: it stays Kestrel's default, and the upload actions lift
/// it per request (Rest/RestUploads.AllowBodyOf), which no server-wide option can express.
/// </summary>
internal sealed class KestrelTuning(
    IConfiguration configuration,
    IOptions<ConnectionLimitsOptions> connections,
    DescriptorBudget descriptors,
    ListeningEndpoints endpoints,
    ILogger<FirstByteTimeout> firstByteLogger)
    : IConfigureOptions<KestrelServerOptions>, IPostConfigureOptions<KestrelServerOptions>,
      IConfigureOptions<SocketTransportOptions>, IPostConfigureOptions<SocketTransportOptions>
{
    public const string LimitsSection = "Kestrel:Limits";
    public const string SocketsSection = "Kestrel:Sockets";

    /// <summary>Product default of <c>Kestrel:Limits:Http2:InitialStreamWindowSize</c> (Kestrel's: 768 KiB).</summary>
    public const int Http2StreamWindowBytes = 4 * 1024 * 1024;

    /// <summary>Product default of <c>Kestrel:Limits:Http2:InitialConnectionWindowSize</c> (Kestrel's: 1 MiB).</summary>
    public const int Http2ConnectionWindowBytes = 8 * 1024 * 1024;

    public void Configure(KestrelServerOptions options)
    {
        var settings = connections.Value;
        var limits = options.Limits;
        limits.KeepAliveTimeout = settings.KeepAliveTimeout;
        limits.RequestHeadersTimeout = settings.RequestHeadersTimeout;
        var rate = settings.MinDataRateBytesPerSecond > 0 ? new MinDataRate(settings.MinDataRateBytesPerSecond, settings.MinDataRateGracePeriod) : null;
        limits.MinRequestBodyDataRate = rate;
        limits.MinResponseDataRate = rate;
        limits.MaxConcurrentConnections = settings.MaxConnections switch
        {
            null => descriptors.DerivedCap,
            0 => null,
            var configured => configured,
        };

        // HTTP/2 receive windows (RFC 9113 6.9.2): how far a client may send a request body ahead of
        // the server's WINDOW_UPDATE. Kestrel's 768 KiB per stream (1 MiB per connection) stops an
        // upload every 768 KiB; 4 / 8 MiB made gRPC uploads 1.15x and REST PUT over HTTP/2 1.36x faster,
        // as fast as 16 / 32 MiB for 25 MB less peak memory (benchmarks/RESULTS.md, runs T2, T2b). The
        // connection window is also the most unread body one connection can leave in server memory,
        // so the worst case is it times the connection cap above.
        limits.Http2.InitialStreamWindowSize = Http2StreamWindowBytes;
        limits.Http2.InitialConnectionWindowSize = Http2ConnectionWindowBytes;

        // Kestrel keeps one endpoint-defaults callback (a second call replaces the first), so this is its only caller.
        var firstByte = new FirstByteTimeout(settings.FirstByteTimeout, firstByteLogger);
        options.ConfigureEndpointDefaults(listen =>
        {
            endpoints.Add(listen);
            listen.Use(firstByte.Wrap);
        });
    }

    public void PostConfigure(string? name, KestrelServerOptions options)
    {
        var section = configuration.GetSection(LimitsSection);

        // MinDataRate has no setters: bound onto the product's instance it would stay as it is, so a
        // configured rate replaces it (the binder then builds it through its constructor).
        if (section.GetSection(nameof(KestrelServerLimits.MinRequestBodyDataRate)).Exists())
        {
            options.Limits.MinRequestBodyDataRate = null;
        }

        if (section.GetSection(nameof(KestrelServerLimits.MinResponseDataRate)).Exists())
        {
            options.Limits.MinResponseDataRate = null;
        }

        section.Bind(options.Limits);
    }

    public void Configure(SocketTransportOptions options)
    {
        // 1 MiB instead of 64 KiB of unsent response bytes per connection before a write waits:
        // each wait on a full pipe boxes the writer's async state (Kestrel's HTTP/2 frame writer
        // waits every ~32 KiB otherwise), and the socket gets larger sends. Measured: HTTP/2
        // allocations 4.9 -> 3.6 MB/GiB, HTTP/1.1 1.7 -> 0.5 MB/GiB, HTTP/2 throughput +11%.
        // Cost: at most 1 MiB more buffered per connection that is sending faster than its peer reads.
        options.MaxWriteBufferSize = 1024 * 1024;
    }

    public void PostConfigure(string? name, SocketTransportOptions options) =>
        configuration.GetSection(SocketsSection).Bind(options);
}
