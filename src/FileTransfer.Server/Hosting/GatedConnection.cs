using System.IO.Pipelines;
using System.Net;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// A transport connection admitted by the <see cref="ConnectionGate"/>: everything is the
/// transport's own, and disposing it (Kestrel always does, once the socket is done) gives back its
/// slot and its place in the client's count, exactly once.
/// </summary>
internal sealed class GatedConnection(ConnectionContext inner, ConnectionGate gate, IPAddress client) : ConnectionContext
{
    private int _released;

    public override IDuplexPipe Transport { get => inner.Transport; set => inner.Transport = value; }

    public override string ConnectionId { get => inner.ConnectionId; set => inner.ConnectionId = value; }

    public override IFeatureCollection Features => inner.Features;

    public override IDictionary<object, object?> Items { get => inner.Items; set => inner.Items = value; }

    public override CancellationToken ConnectionClosed { get => inner.ConnectionClosed; set => inner.ConnectionClosed = value; }

    public override EndPoint? LocalEndPoint { get => inner.LocalEndPoint; set => inner.LocalEndPoint = value; }

    public override EndPoint? RemoteEndPoint { get => inner.RemoteEndPoint; set => inner.RemoteEndPoint = value; }

    public override void Abort(ConnectionAbortedException abortReason) => inner.Abort(abortReason);

    public override void Abort() => inner.Abort();

    public override async ValueTask DisposeAsync()
    {
        try
        {
            await inner.DisposeAsync();
        }
        finally
        {
            if (Interlocked.Exchange(ref _released, 1) == 0)
            {
                gate.Leave(client);
                gate.Release();
            }
        }
    }
}
