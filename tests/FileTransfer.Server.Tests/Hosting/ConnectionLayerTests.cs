using System.Net;
using System.Net.Sockets;
using FileTransfer.Server.Hosting;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>
/// Every listener Kestrel binds goes through the connection guard: the guarded factory is the one
/// Kestrel picks for every kind of socket endpoint, and a listener that would bypass it (another
/// transport registered later, a QUIC listener for HTTP/3) stops the server at start.
/// </summary>
public sealed class ConnectionLayerTests
{
    [Fact]
    public void Kestrel_Picks_The_Guarded_Factory_For_Every_Socket_Endpoint_And_Has_No_Quic_Listener()
    {
        using var server = new KestrelFactory();
        server.AddressOf(HttpProtocols.Http1);

        // Kestrel binds an endpoint with the last registered factory that accepts it.
        var picked = server.Services.GetServices<IConnectionListenerFactory>().Last();
        var guarded = Assert.IsType<GuardedTransportFactory>(picked);
        Assert.True(guarded.CanBind(new IPEndPoint(IPAddress.Loopback, 0)));
        Assert.True(guarded.CanBind(new UnixDomainSocketEndPoint("/tmp/ft.sock")));
        Assert.Empty(server.Services.GetServices<IMultiplexedConnectionListenerFactory>());
    }

    [Fact]
    public void A_Transport_Registered_After_The_Guard_Stops_The_Server_At_Start()
    {
        using var server = new KestrelFactory();
        server.WithServices(services => services.AddSingleton<IConnectionListenerFactory>(
            new SocketTransportFactory(Options.Create(new SocketTransportOptions()), NullLoggerFactory.Instance)));

        var refused = Assert.ThrowsAny<Exception>(() => server.AddressOf(HttpProtocols.Http1));

        Assert.Contains("SocketTransportFactory, past the connection guard", refused.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void A_Quic_Listener_Stops_The_Server_At_Start()
    {
        using var server = new KestrelFactory();
        server.WithServices(services => services.AddSingleton<IMultiplexedConnectionListenerFactory, UnguardedQuic>());

        var refused = Assert.ThrowsAny<Exception>(() => server.AddressOf(HttpProtocols.Http1));

        Assert.Contains("(HTTP/3 over QUIC) would accept connections past the connection guard", refused.ToString(), StringComparison.Ordinal);
    }

    /// <summary>Stands for the QUIC transport a host registers where libmsquic is installed.</summary>
    private sealed class UnguardedQuic : IMultiplexedConnectionListenerFactory
    {
        public ValueTask<IMultiplexedConnectionListener> BindAsync(EndPoint endpoint, IFeatureCollection? features = null, CancellationToken cancellationToken = default) =>
            throw new NotSupportedException("Never bound: the server must refuse to start first.");
    }
}
