using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// The product's Kestrel defaults for moving large files, each one measured (benchmarks/RESULTS.md).
/// Configuration under <c>Kestrel:Limits</c> and <c>Kestrel:Sockets</c> is bound after them, so an
/// operator can still override any of them.
/// </summary>
internal sealed class KestrelTuning(IConfiguration configuration) : IConfigureOptions<KestrelServerOptions>, IConfigureOptions<SocketTransportOptions>
{
    public void Configure(KestrelServerOptions options)
    {
        // Kestrel drops a response that is read slower than 240 B/s once it has waited 5 s; a
        // download whose client pauses (busy hashing, throttled, a phone switching networks) for
        // a few seconds is then cut off. Measured: 64 parallel 256 MiB downloads on the 2-core
        // machine lost connections to exactly this ("response was not read by the client at the
        // specified minimum data rate"). 30 s of grace is closer to nginx's 60 s send_timeout
        // and still ends a client that has stopped reading.
        options.Limits.MinResponseDataRate = new MinDataRate(bytesPerSecond: 240, gracePeriod: TimeSpan.FromSeconds(30));
        configuration.GetSection("Kestrel:Limits").Bind(options.Limits);
    }

    public void Configure(SocketTransportOptions options)
    {
        // 1 MiB instead of 64 KiB of unsent response bytes per connection before a write waits:
        // each wait on a full pipe boxes the writer's async state (Kestrel's HTTP/2 frame writer
        // waits every ~32 KiB otherwise), and the socket gets larger sends. Measured: HTTP/2
        // allocations 4.9 -> 3.6 MB/GiB, HTTP/1.1 1.7 -> 0.5 MB/GiB, HTTP/2 throughput +11%.
        // Cost: at most 1 MiB more buffered per connection that is sending faster than its peer reads.
        options.MaxWriteBufferSize = 1024 * 1024;
        configuration.GetSection("Kestrel:Sockets").Bind(options);
    }
}
