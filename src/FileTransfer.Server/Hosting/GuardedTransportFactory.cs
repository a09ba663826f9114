using System.Net;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// Kestrel's socket transport for every endpoint it can bind (IP, Unix domain socket, an inherited
/// handle), each listener wrapped in a <see cref="GuardedConnectionListener"/>. The socket transport
/// itself is Kestrel's, built from the same <see cref="SocketTransportOptions"/> (and so the same
/// memory pool, see <see cref="TransferMemoryPool"/>); only its accept loop is guarded. Registered
/// after Kestrel's own factory, so Kestrel picks it first; <see cref="ConnectionLayerCheck"/> refuses
/// to start when another listener would be picked instead.
/// </summary>
internal sealed class GuardedTransportFactory(IOptions<SocketTransportOptions> options, ILoggerFactory loggers, ConnectionGate gate)
    : IConnectionListenerFactory, IConnectionListenerFactorySelector
{
    private readonly SocketTransportFactory _sockets = new(options, loggers);

    public bool CanBind(EndPoint endpoint) => _sockets.CanBind(endpoint);

    public async ValueTask<IConnectionListener> BindAsync(EndPoint endpoint, CancellationToken cancellationToken = default)
    {
        var listener = new GuardedConnectionListener(gate, loggers.CreateLogger<GuardedConnectionListener>());
        listener.Start(await _sockets.BindAsync(endpoint, cancellationToken));
        return listener;
    }
}
