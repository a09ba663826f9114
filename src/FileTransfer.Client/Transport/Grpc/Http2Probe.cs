using System.Net.Sockets;

namespace FileTransfer.Client.Transport.Grpc;

/// <summary>
/// Asks a cleartext port whether it speaks HTTP/2, on a connection of its own: after the client's
/// connection preface, a server that does sends a SETTINGS frame first (RFC 9113 3.4).
/// </summary>
/// <remarks>
/// gRPC on <c>http://</c> is HTTP/2 with prior knowledge (RFC 9113 3.3). When a call fails before
/// the server answered it, its error cannot say whether the port lacks HTTP/2 or the connection
/// broke: SocketsHttpHandler reports a new connection that ended before a request could use it as
/// "the server did not complete the HTTP/2 handshake", with the cause or without it, depending on
/// whether its frame reader or its connection pool got there first, whatever ended it (a reset,
/// or Kestrel's GOAWAY(HTTP_1_1_REQUIRED) on an HTTP/1.1 port). The first bytes of a fresh
/// connection answer the same way every time for the same server.
/// </remarks>
internal static class Http2Probe
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(5);

    private const int FrameHeaderLength = 9;
    private const byte SettingsFrame = 0x4;

    // The client connection preface, then an empty SETTINGS frame: length 0, type, flags 0, stream 0 (RFC 9113 3.4, 4.1).
    private static readonly byte[] ClientPreface = [.. "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8, 0, 0, 0, SettingsFrame, 0, 0, 0, 0, 0];

    /// <summary>
    /// True when the server answers the preface with something other than a SETTINGS frame (Kestrel's
    /// HTTP/1.1 endpoint: GOAWAY with HTTP_1_1_REQUIRED; other servers: an HTTP/1.1 error response).
    /// False when it speaks HTTP/2, and when it says nothing at all (refused, reset, closed, or
    /// silent for 5 s): a port that cannot be talked to is a connection problem.
    /// </summary>
    public static async Task<bool> RefusedAsync(Uri address, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(Timeout);
        using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        var header = new byte[FrameHeaderLength];
        var read = 0;
        try
        {
            await socket.ConnectAsync(address.IdnHost, address.Port, timeout.Token);
            await socket.SendAsync(ClientPreface, timeout.Token);
            for (int count; read < header.Length && (count = await socket.ReceiveAsync(header.AsMemory(read), timeout.Token)) > 0;)
            {
                read += count;
            }
        }
        catch (Exception e) when (e is SocketException || (e is OperationCanceledException && !cancellationToken.IsCancellationRequested))
        {
            // Whatever arrived before the connection failed still counts.
        }

        // The frame type is the fourth byte of the frame header (RFC 9113 4.1).
        return read > 0 && (read < header.Length || header[3] != SettingsFrame);
    }
}
