using System.Net;
using System.Net.Sockets;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// A TCP relay on a loopback port 0 in front of a server that cuts connections the way a network
/// does: the first <c>connectionsToCut</c> connections are reset once <c>cutAfterBytes</c> bytes
/// have crossed in one direction; later connections are relayed untouched (or, with
/// <c>refuseAfterCut</c>, reset at once). Protocol-agnostic: HTTP/1.1, h2c and gRPC alike.
/// </summary>
public sealed class CuttingProxy : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly Uri _upstream;
    private readonly long _cutAfterBytes;
    private readonly bool _cutDownstream;
    private readonly int _connectionsToCut;
    private readonly bool _refuseAfterCut;
    private readonly Func<bool>? _cutWhen;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Task> _relays = [];
    private readonly Task _accepting;
    private int _connections;
    private long _downstreamBytes;
    private long _upstreamBytes;

    /// <param name="upstream">The server's address.</param>
    /// <param name="cutAfterBytes">Bytes that cross before the cut.</param>
    /// <param name="cutDownstream">True: count server-to-client bytes (a download); false: client-to-server (an upload).</param>
    /// <param name="connectionsToCut">How many connections, from the first, are cut.</param>
    /// <param name="refuseAfterCut">Reset every later connection at once instead of relaying it.</param>
    /// <param name="cutWhen">
    /// Holds a cut connection (nothing more relayed) until this is true, e.g. until the client
    /// reports the bytes it received, so that the cut does not depend on how fast it reads; at most 10 s.
    /// </param>
    public CuttingProxy(Uri upstream, long cutAfterBytes, bool cutDownstream, int connectionsToCut = 1, bool refuseAfterCut = false, Func<bool>? cutWhen = null)
    {
        _cutWhen = cutWhen;
        _upstream = upstream;
        _cutAfterBytes = cutAfterBytes;
        _cutDownstream = cutDownstream;
        _connectionsToCut = connectionsToCut;
        _refuseAfterCut = refuseAfterCut;
        _listener.Start();
        Address = new Uri($"{upstream.Scheme}://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}/");
        _accepting = AcceptAsync();
    }

    /// <summary>Where clients connect.</summary>
    public Uri Address { get; }

    /// <summary>Connections accepted so far.</summary>
    public int Connections => Volatile.Read(ref _connections);

    /// <summary>Bytes relayed from the server to clients, over every connection.</summary>
    public long DownstreamBytes => Interlocked.Read(ref _downstreamBytes);

    /// <summary>Bytes relayed from clients to the server, over every connection.</summary>
    public long UpstreamBytes => Interlocked.Read(ref _upstreamBytes);

    private async Task AcceptAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            Socket client;
            try
            {
                client = await _listener.AcceptSocketAsync(_stop.Token);
            }
            catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
            {
                return;
            }

            var number = Interlocked.Increment(ref _connections);
            lock (_relays)
            {
                _relays.Add(RelayAsync(client, cut: number <= _connectionsToCut, refuse: number > _connectionsToCut && _refuseAfterCut));
            }
        }
    }

    private async Task RelayAsync(Socket client, bool cut, bool refuse)
    {
        using var server = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            if (refuse)
            {
                Reset(client);
                return;
            }

            await server.ConnectAsync(_upstream.Host, _upstream.Port, _stop.Token);
            using var both = CancellationTokenSource.CreateLinkedTokenSource(_stop.Token);
            var limit = cut ? _cutAfterBytes : long.MaxValue;
            var up = PumpAsync(client, server, _cutDownstream ? long.MaxValue : limit, downstream: false, both.Token);
            var down = PumpAsync(server, client, _cutDownstream ? limit : long.MaxValue, downstream: true, both.Token);
            var first = await Task.WhenAny(up, down);
            if (cut && (first == down) == _cutDownstream)
            {
                // Let the peer read what crossed before the reset throws away its unread receive buffer,
                // so that the cut lands after the bytes counted.
                await Task.Delay(200, _stop.Token);
                for (var waited = 0; _cutWhen is not null && !_cutWhen() && waited < 1000; waited++)
                {
                    await Task.Delay(10, _stop.Token);
                }
            }

            // One side ended or the limit was reached: reset both, as a broken network path would.
            Reset(client);
            Reset(server);
            await both.CancelAsync();
            await Task.WhenAll(up, down).ContinueWith(_ => { }, TaskScheduler.Default);
        }
        catch (Exception e) when (e is SocketException or OperationCanceledException or ObjectDisposedException)
        {
            Reset(client);
        }
        finally
        {
            client.Dispose();
        }
    }

    private async Task PumpAsync(Socket from, Socket to, long limit, bool downstream, CancellationToken cancellationToken)
    {
        var buffer = new byte[16 * 1024];
        long moved = 0;
        try
        {
            while (moved < limit)
            {
                var read = await from.ReceiveAsync(buffer.AsMemory(0, (int)Math.Min(buffer.Length, limit - moved)), SocketFlags.None, cancellationToken);
                if (read == 0)
                {
                    return;
                }

                await to.SendAsync(buffer.AsMemory(0, read), SocketFlags.None, cancellationToken);
                moved += read;
                Interlocked.Add(ref downstream ? ref _downstreamBytes : ref _upstreamBytes, read);
            }
        }
        catch (Exception e) when (e is SocketException or OperationCanceledException or ObjectDisposedException)
        {
            // The other direction ended first.
        }
    }

    // Linger 0: close sends RST, not FIN, so the peer sees a broken connection, not a clean end.
    private static void Reset(Socket socket)
    {
        try
        {
            socket.LingerState = new LingerOption(true, 0);
            socket.Close();
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Already gone.
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        await _accepting;
        Task[] relays;
        lock (_relays)
        {
            relays = [.. _relays];
        }

        await Task.WhenAll(relays);
        _stop.Dispose();
    }
}
