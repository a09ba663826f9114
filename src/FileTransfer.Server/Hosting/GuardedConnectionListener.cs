using System.Net;
using FileTransfer.Server.Diagnostics;
using Microsoft.AspNetCore.Connections;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// Wraps one endpoint's Kestrel listener. Before each accept it waits for a slot under the
/// connection cap; after it, a client over its share (<see cref="ConnectionGate.TryEnter"/>) is closed at once. When accept(2) fails
/// (EMFILE, ENFILE, ENOBUFS: see <see cref="AcceptFailureSignal"/>) it backs off, 50 ms doubling
/// to 1 s, instead of retrying at once. Any other exception from the transport is logged and
/// retried after the same back-off: Kestrel's dispatcher would otherwise stop accepting on that
/// endpoint for good (dotnet/aspnetcore#66942, #55599).
/// </summary>
internal sealed class GuardedConnectionListener(ConnectionGate gate, ILogger logger) : IConnectionListener
{
    private static readonly TimeSpan FirstBackoff = TimeSpan.FromMilliseconds(50);
    private static readonly TimeSpan MaxBackoff = TimeSpan.FromSeconds(1);

    private readonly CancellationTokenSource _unbound = new();
    private readonly LogThrottle _refusedLog = new(TimeSpan.FromSeconds(10));
    private readonly LogThrottle _failedLog = new(TimeSpan.FromSeconds(10));
    private IConnectionListener _inner = null!;
    private TimeSpan _backoff = FirstBackoff;

    public EndPoint EndPoint => _inner.EndPoint;

    internal void Start(IConnectionListener inner) => _inner = inner;

    /// <summary>The next admitted connection; null once the listener is unbound.</summary>
    public async ValueTask<ConnectionContext?> AcceptAsync(CancellationToken cancellationToken = default)
    {
        using var caller = cancellationToken.CanBeCanceled ? CancellationTokenSource.CreateLinkedTokenSource(_unbound.Token, cancellationToken) : null;
        var stop = caller?.Token ?? _unbound.Token;
        while (true)
        {
            try
            {
                await gate.WaitAsync(stop);
            }
            catch (OperationCanceledException) when (_unbound.IsCancellationRequested)
            {
                return null;
            }

            ConnectionContext? connection;
            try
            {
                connection = await AcceptOneAsync(stop);
            }
            catch
            {
                gate.Release();
                throw;
            }

            if (connection is null)
            {
                gate.Release();
                return null;
            }

            var client = ClientAddress.Of(connection.RemoteEndPoint);
            if (gate.TryEnter(client, out var held))
            {
                return new GatedConnection(connection, gate, client);
            }

            gate.Release();
            if (_refusedLog.ShouldLog(out var suppressed))
            {
                Log.ClientOverConnectionLimit(logger, client, held, suppressed);
            }

            _ = CloseAsync(connection);
        }
    }

    /// <summary>One connection from the transport, backing off while accept fails; null once unbound.</summary>
    private async Task<ConnectionContext?> AcceptOneAsync(CancellationToken stop)
    {
        while (true)
        {
            using (var attempt = CancellationTokenSource.CreateLinkedTokenSource(stop))
            {
                AcceptFailureSignal.Watch(attempt);
                try
                {
                    var connection = await _inner.AcceptAsync(attempt.Token);
                    _backoff = FirstBackoff;
                    return connection;
                }
                catch (OperationCanceledException) when (_unbound.IsCancellationRequested)
                {
                    return null;
                }
                catch (OperationCanceledException) when (!stop.IsCancellationRequested)
                {
                    // Only a failed accept(2) inside the transport's call cancels the attempt alone.
                    if (_failedLog.ShouldLog(out var suppressed))
                    {
                        Log.AcceptFailing(logger, EndPoint, _backoff.TotalMilliseconds, suppressed);
                    }
                }
                catch (Exception exception) when (exception is not OperationCanceledException)
                {
                    Log.AcceptThrew(logger, EndPoint, _backoff.TotalMilliseconds, exception);
                }
                finally
                {
                    AcceptFailureSignal.Unwatch();
                }
            }

            try
            {
                await Task.Delay(_backoff, stop);
            }
            catch (OperationCanceledException) when (_unbound.IsCancellationRequested)
            {
                return null;
            }

            _backoff = TimeSpan.FromTicks(Math.Min(_backoff.Ticks * 2, MaxBackoff.Ticks));
        }
    }

    private async Task CloseAsync(ConnectionContext connection)
    {
        try
        {
            connection.Abort(new ConnectionAbortedException("The client holds its share of connections."));
            await connection.DisposeAsync();
        }
        catch (Exception exception)
        {
            Log.CloseFailed(logger, exception);
        }
    }

    public async ValueTask UnbindAsync(CancellationToken cancellationToken = default)
    {
        await _unbound.CancelAsync();
        await _inner.UnbindAsync(cancellationToken);
    }

    public async ValueTask DisposeAsync()
    {
        await _unbound.CancelAsync();
        await _inner.DisposeAsync();
    }
}
