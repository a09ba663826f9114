using Microsoft.AspNetCore.Connections;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// Closes a connection that sends nothing within <c>Connections:FirstByteTimeout</c> of being
/// accepted. Kestrel gives a new HTTP/1.1 connection its keep-alive timeout to start the first
/// request (and an HTTP/2 one to send its preface), so an idle socket costs a descriptor for a
/// minute by default; this is the first connection middleware of every endpoint, so it sees the
/// raw bytes (also the TLS hello), and it only peeks: the bytes stay in the pipe for the protocol.
/// </summary>
internal sealed class FirstByteTimeout(TimeSpan timeout, ILogger<FirstByteTimeout> logger)
{
    public ConnectionDelegate Wrap(ConnectionDelegate next) => connection => OnConnectionAsync(connection, next);

    private async Task OnConnectionAsync(ConnectionContext connection, ConnectionDelegate next)
    {
        var input = connection.Transport.Input;
        using (var timer = new CancellationTokenSource(timeout))
        {
            try
            {
                var result = await input.ReadAsync(timer.Token);

                // Nothing consumed, nothing examined: the next read returns the same bytes at once.
                input.AdvanceTo(result.Buffer.Start);
            }
            catch (OperationCanceledException) when (timer.IsCancellationRequested)
            {
                Log.ClosedBeforeFirstByte(logger, connection.ConnectionId, connection.RemoteEndPoint, timeout.TotalSeconds);
                connection.Abort(new ConnectionAbortedException("Nothing received within Connections:FirstByteTimeout."));
                return;
            }
            catch (Exception exception) when (exception is IOException or ConnectionAbortedException)
            {
                // Reset by the client, or aborted by the server (shutdown) before a byte arrived. Left to
                // Kestrel, an exception from a connection middleware is logged as an error: one line per
                // connection an attacker opens and resets.
                Log.GoneBeforeFirstByte(logger, connection.ConnectionId, connection.RemoteEndPoint, exception.Message);
                return;
            }
        }

        await next(connection);
    }
}
