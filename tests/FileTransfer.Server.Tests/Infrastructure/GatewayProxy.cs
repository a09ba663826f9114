using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// A TCP relay on a loopback port 0 in front of the shared Ceph RGW that a test takes down, freezes
/// and brings back, as the server would see the gateway itself stopped: <see cref="Kill"/> is a gateway
/// that died (every connection reset, new ones refused), <see cref="Freeze"/> one that was paused with
/// SIGSTOP or cut off without resets (connections accepted, nothing answered, bytes in flight held),
/// <see cref="Resume"/> brings it back (held bytes flow on). Only the server under test goes through it,
/// so other tests on the shared gateway never notice.
/// </summary>
public sealed class GatewayProxy : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly Uri _upstream;
    private readonly CancellationTokenSource _stop = new();
    private readonly ConcurrentDictionary<Socket, byte> _sockets = new();
    private readonly Task _accepting;
    private volatile State _state = State.Open;
    private TaskCompletionSource _thawed = NewThaw();
    private long _upstreamBytes;

    public GatewayProxy(Uri upstream)
    {
        _upstream = upstream;
        _listener.Start();
        Address = new Uri($"{upstream.Scheme}://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}/");
        _accepting = AcceptAsync();
    }

    private enum State
    {
        Open,
        Frozen,
        Down,
    }

    /// <summary>Where the server under test reaches the gateway.</summary>
    public Uri Address { get; }

    /// <summary>Bytes relayed to the gateway so far, over every connection.</summary>
    public long UpstreamBytes => Interlocked.Read(ref _upstreamBytes);

    /// <summary>The gateway dies: every connection is reset; new ones are reset as they arrive.</summary>
    public void Kill()
    {
        _state = State.Down;
        foreach (var socket in _sockets.Keys)
        {
            Reset(socket);
        }

        _thawed.TrySetResult();
    }

    /// <summary>The gateway stops answering: connections stay open and accepted, and nothing moves either way.</summary>
    public void Freeze()
    {
        if (_state != State.Frozen)
        {
            _thawed = NewThaw();
            _state = State.Frozen;
        }
    }

    /// <summary>The gateway is back: new connections are relayed, and held bytes flow on.</summary>
    public void Resume()
    {
        _state = State.Open;
        _thawed.TrySetResult();
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        Resume();
        foreach (var socket in _sockets.Keys)
        {
            Reset(socket);
        }

        await _accepting;
        _stop.Dispose();
    }

    private static TaskCompletionSource NewThaw() => new(TaskCreationOptions.RunContinuationsAsynchronously);

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

            if (_state == State.Down)
            {
                Reset(client);
                continue;
            }

            _ = RelayAsync(client);
        }
    }

    private async Task RelayAsync(Socket client)
    {
        using var server = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        _sockets[client] = 0;
        _sockets[server] = 0;
        try
        {
            // A frozen gateway accepted the connection (the kernel does) but answers nothing.
            if (!await GateAsync())
            {
                return;
            }

            await server.ConnectAsync(_upstream.Host, _upstream.Port, _stop.Token);
            var up = PumpAsync(client, server, upstream: true);
            var down = PumpAsync(server, client, upstream: false);
            await Task.WhenAny(up, down);
        }
        catch (Exception e) when (e is SocketException or OperationCanceledException or ObjectDisposedException)
        {
            // Reset below.
        }
        finally
        {
            _sockets.TryRemove(client, out _);
            _sockets.TryRemove(server, out _);
            Reset(client);
            Reset(server);
            client.Dispose();
        }
    }

    private async Task PumpAsync(Socket from, Socket to, bool upstream)
    {
        var buffer = new byte[64 * 1024];
        try
        {
            while (await GateAsync())
            {
                var read = await from.ReceiveAsync(buffer, SocketFlags.None, _stop.Token);
                if (read == 0 || !await GateAsync())
                {
                    return;
                }

                await to.SendAsync(buffer.AsMemory(0, read), SocketFlags.None, _stop.Token);
                if (upstream)
                {
                    Interlocked.Add(ref _upstreamBytes, read);
                }
            }
        }
        catch (Exception e) when (e is SocketException or OperationCanceledException or ObjectDisposedException)
        {
            // The other side ended, or the gateway was killed.
        }
    }

    // True to go on moving bytes; waits while frozen; false once the gateway is down.
    private async Task<bool> GateAsync()
    {
        while (_state == State.Frozen && !_stop.IsCancellationRequested)
        {
            await _thawed.Task.WaitAsync(_stop.Token);
        }

        return _state == State.Open && !_stop.IsCancellationRequested;
    }

    // Linger 0: close sends RST, as a dead process's kernel does for its connections. (As
    // CuttingProxy does; this file is also compiled into the core's tests, which have no CuttingProxy.)
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
}
