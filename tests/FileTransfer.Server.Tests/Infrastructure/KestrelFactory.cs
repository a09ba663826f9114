using System.Net.Http.Headers;
using FileTransfer.Server.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// The application on real Kestrel, every endpoint on a loopback port 0: for what the in-memory
/// test server bypasses (protocol negotiation, TLS, request limits, aborted connections).
/// </summary>
public sealed class KestrelFactory : FileTransferFactory
{
    public KestrelFactory()
    {
        With("Kestrel:Endpoints:Http1:Url", "http://127.0.0.1:0");
        With("Kestrel:Endpoints:Http2:Url", "http://127.0.0.1:0");
        UseKestrel();
    }

    /// <summary>Starts the host and returns the address of the endpoint speaking exactly <paramref name="protocols"/>.</summary>
    public Uri AddressOf(HttpProtocols protocols)
    {
        StartServer();
        return Services.GetRequiredService<ListeningEndpoints>().Get(protocols);
    }

    /// <summary>An HttpClient that speaks <paramref name="version"/> and nothing else, authenticated with <see cref="FileTransferFactory.TestKey"/>.</summary>
    public static HttpClient ClientFor(Uri address, Version version, HttpMessageHandler? handler = null) =>
        new(handler ?? new SocketsHttpHandler(), disposeHandler: true)
        {
            BaseAddress = address,
            DefaultRequestVersion = version,
            DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
            DefaultRequestHeaders = { Authorization = new AuthenticationHeaderValue("Bearer", TestKey) },
        };
}
