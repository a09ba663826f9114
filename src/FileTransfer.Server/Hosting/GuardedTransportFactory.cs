using System.Net;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// Kestrel's socket transport for every IP endpoint, each listener wrapped in a
/// <see cref="GuardedConnectionListener"/>. The socket transport itself is Kestrel's, built from
/// the same <see cref="SocketTransportOptions"/> (and so the same memory pool, see
/// <see cref="TransferMemoryPool"/>); only its accept loop is guarded. Registered after Kestrel's
/// own factory, so Kestrel picks it first for the endpoints it can bind.
/// </summary>
internal sealed class GuardedTransportFactory(IOptions<SocketTransportOptions> options, ILoggerFactory loggers, ConnectionGate gate)
    : IConnectionListenerFactory, IConnectionListenerFactorySelector
{
    public bool CanBind(EndPoint endpoint) => endpoint is IPEndPoint;

    public async ValueTask<IConnectionListener> BindAsync(EndPoint endpoint, CancellationToken cancellationToken = default)
    {
        var listener = new GuardedConnectionListener(gate, loggers.CreateLogger<GuardedConnectionListener>());
        var sockets = new SocketTransportFactory(options, new AcceptFailureSignal(loggers, listener.OnAcceptFailed));
        listener.Start(await sockets.BindAsync(endpoint, cancellationToken));
        return listener;
    }
}
