using System.Net;
using System.Net.Sockets;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>
/// Raw TCP connections that never send a byte, opened the way an attacker holds descriptors. Each
/// comes from a chosen loopback address (all of 127.0.0.0/8 is loopback on Linux), so that tests can
/// tell the attacker's address from the clients that must still be served from 127.0.0.1.
/// </summary>
internal sealed class IdleConnections : IDisposable
{
    private readonly List<Socket> _sockets = [];

    public int Count => _sockets.Count;

    /// <summary>Opens <paramref name="count"/> connections from <paramref name="source"/>; the ones not connected within <paramref name="connectTimeout"/> are dropped.</summary>
    public static async Task<IdleConnections> OpenAsync(Uri server, IPAddress source, int count, TimeSpan connectTimeout)
    {
        var connections = new IdleConnections();
        await connections.AddAsync(server, source, count, connectTimeout);
        return connections;
    }

    public async Task AddAsync(Uri server, IPAddress source, int count, TimeSpan connectTimeout)
    {
        var target = new IPEndPoint(IPAddress.Parse(server.Host), server.Port);

        // A few dozen handshakes in flight at once, as a flooding client keeps them: thousands at the
        // same instant would only overflow the listen backlog, and the kernel would drop the SYNs.
        using var inFlight = new SemaphoreSlim(32);
        var attempts = Enumerable.Range(0, count).Select(async _ =>
        {
            await inFlight.WaitAsync();
            var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            try
            {
                socket.Bind(new IPEndPoint(source, 0));
                using var timeout = new CancellationTokenSource(connectTimeout);
                await socket.ConnectAsync(target, timeout.Token);
                return socket;
            }
            catch (Exception e) when (e is SocketException or OperationCanceledException)
            {
                socket.Dispose();
                return null;
            }
            finally
            {
                inFlight.Release();
            }
        });
        foreach (var socket in await Task.WhenAll(attempts))
        {
            if (socket is not null)
            {
                _sockets.Add(socket);
            }
        }
    }

    /// <summary>How many the server has closed (end of stream or reset) so far.</summary>
    public int ClosedByServer() => _sockets.Count(IsClosed);

    /// <summary>Waits until the server has closed every one, or <paramref name="within"/> passes; returns how many are still open.</summary>
    public Task<int> WaitUntilAllClosedAsync(TimeSpan within) => WaitUntilOpenAtMostAsync(0, within);

    /// <summary>Waits until at most <paramref name="open"/> are still open, or <paramref name="within"/> passes; returns how many are.</summary>
    public async Task<int> WaitUntilOpenAtMostAsync(int open, TimeSpan within)
    {
        var deadline = DateTime.UtcNow + within;
        int now;
        while ((now = _sockets.Count - ClosedByServer()) > open && DateTime.UtcNow < deadline)
        {
            await Task.Delay(200);
        }

        return now;
    }

    private static bool IsClosed(Socket socket)
    {
        try
        {
            // Readable with nothing to read: the peer sent FIN (or RST, which Poll reports the same way).
            return socket.Poll(0, SelectMode.SelectRead) && socket.Available == 0;
        }
        catch (SocketException)
        {
            return true;
        }
        catch (ObjectDisposedException)
        {
            return true;
        }
    }

    public void Dispose()
    {
        foreach (var socket in _sockets)
        {
            socket.Dispose();
        }
    }
}
