using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;

namespace FileTransfer.Client.Transport;

/// <summary>The HTTP stack under both protocols, tuned for large transfers.</summary>
internal static class HttpHandlers
{
    /// <summary>A handler with the TLS settings of <paramref name="options"/> (none: the system's trusted roots).</summary>
    public static SocketsHttpHandler Create(FileTransferClientOptions? options = null) => new()
    {
        // HTTP/2 (REST on h2 and every gRPC call): start each stream with a 4 MiB window instead of
        // 64 KiB, so that one large download is not throttled by window updates while the dynamic
        // window grows (it still grows, up to 16 MiB, on a long round trip). Chosen by measurement
        // (docs/performance-notes.md): 16 MiB, the earlier value, took about twice as long on a
        // loaded machine for the same CPU. Open more connections when the server's stream limit is reached.
        InitialHttp2StreamWindowSize = 4 * 1024 * 1024,
        EnableMultipleHttp2Connections = true,
        // Detect a dead HTTP/2 connection during a long transfer instead of waiting forever.
        KeepAlivePingDelay = TimeSpan.FromSeconds(30),
        KeepAlivePingTimeout = TimeSpan.FromSeconds(30),
        KeepAlivePingPolicy = HttpKeepAlivePingPolicy.WithActiveRequests,
        ConnectTimeout = TimeSpan.FromSeconds(30),
        AutomaticDecompression = DecompressionMethods.None,
        // Uploads send "Expect: 100-continue" (RFC 9110 10.1.1): the body waits for the server's
        // go-ahead, which Kestrel sends when the application starts reading it, or for its refusal.
        // A server or proxy that ignores the expectation costs each upload this wait; a refusal that
        // comes later is still read (PeerLossStream).
        Expect100ContinueTimeout = TimeSpan.FromSeconds(2),
        ConnectCallback = ConnectAsync,
        SslOptions = TlsOptions(options),
    };

    private static SslClientAuthenticationOptions TlsOptions(FileTransferClientOptions? options)
    {
        var tls = new SslClientAuthenticationOptions();
        if (options is { AcceptAnyServerCertificate: true })
        {
            tls.RemoteCertificateValidationCallback = (_, _, _, _) => true;
        }
        else if (options?.TrustedCertificates is { } anchors)
        {
            // Only these anchors, not the system's roots; revocation is not checked, as SslStream does
            // not check it by default either. The host name is still checked against the certificate.
            tls.CertificateChainPolicy = new X509ChainPolicy
            {
                TrustMode = X509ChainTrustMode.CustomRootTrust,
                RevocationMode = X509RevocationMode.NoCheck,
            };
            tls.CertificateChainPolicy.CustomTrustStore.AddRange(anchors);
        }

        return tls;
    }

    /// <summary>The default connection (TCP, no Nagle delay) under a <see cref="PeerLossStream"/>.</summary>
    private static async ValueTask<Stream> ConnectAsync(SocketsHttpConnectionContext context, CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(context.DnsEndPoint, cancellationToken);
            return new PeerLossStream(new NetworkStream(socket, ownsSocket: true));
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>A client for transfers of any size: stalls are detected per read, never by a total timeout.</summary>
    public static HttpClient CreateClient(FileTransferClientOptions options) => new(Create(options), disposeHandler: true) { Timeout = Timeout.InfiniteTimeSpan };

    public static Exception Innermost(Exception e) => e.InnerException is null ? e : Innermost(e.InnerException);

    /// <summary>
    /// True for the ways a request fails because the connection did (refused, reset, closed under a
    /// read or write) rather than because the server answered: an <see cref="HttpRequestException"/>
    /// without a status, an <see cref="IOException"/>, and the bare <see cref="System.Net.Sockets.SocketException"/>
    /// SocketsHttpHandler lets through when the peer closes the socket while it connects.
    /// </summary>
    public static bool IsConnectionFailure(Exception e) =>
        e is HttpRequestException { StatusCode: null } or IOException or System.Net.Sockets.SocketException;
}
