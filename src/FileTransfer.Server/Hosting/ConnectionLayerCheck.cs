using Microsoft.AspNetCore.Connections;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// Refuses to start when a connection could reach the server past the connection guard (the cap,
/// the per-client share, the accept back-off: <see cref="GuardedConnectionListener"/>). Kestrel binds
/// each endpoint with the last registered listener factory that accepts it, so the guarded one must be
/// the last; and a multiplexed (QUIC, HTTP/3) listener factory would accept connections the guard
/// never sees, so there must be none until one is guarded too. A registration made after
/// <c>AddFileTransfer</c> (a later <c>UseQuic</c>, another transport) is caught here, not in production.
/// </summary>
internal sealed class ConnectionLayerCheck(IServiceProvider services) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        var picked = services.GetServices<IConnectionListenerFactory>().LastOrDefault();
        if (picked is not null and not GuardedTransportFactory)
        {
            throw new InvalidOperationException(
                $"Kestrel would accept connections through {picked.GetType().FullName}, past the connection guard (Hosting/GuardedConnectionListener): register it before AddFileTransfer or guard it.");
        }

        if (services.GetServices<IMultiplexedConnectionListenerFactory>().FirstOrDefault() is { } multiplexed)
        {
            throw new InvalidOperationException(
                $"{multiplexed.GetType().FullName} (HTTP/3 over QUIC) would accept connections past the connection guard (Hosting/GuardedConnectionListener): HTTP/3 is not offered until its listener is guarded too.");
        }

        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
