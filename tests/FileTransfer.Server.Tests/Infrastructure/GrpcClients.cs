using System.Net.Http.Headers;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Hosting;
using Grpc.Net.Client;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>Grpc.Net.Client channels to a <see cref="KestrelFactory"/>'s real HTTP/2 endpoint.</summary>
public static class GrpcClients
{
    /// <summary>A FileService client on the cleartext HTTP/2 endpoint, sending <paramref name="apiKey"/> (the test key by default; null for none).</summary>
    public static FileService.FileServiceClient For(KestrelFactory server, string? apiKey = FileTransferFactory.TestKey) =>
        new(Channel(server.AddressOf(HttpProtocols.Http2), apiKey));

    /// <summary>A channel to <paramref name="address"/>, every call carrying <c>authorization: Bearer KEY</c> when a key is given.</summary>
    public static GrpcChannel Channel(Uri address, string? apiKey = FileTransferFactory.TestKey, HttpMessageHandler? handler = null) =>
        GrpcChannel.ForAddress(address, new GrpcChannelOptions
        {
            HttpHandler = new BearerHandler(apiKey) { InnerHandler = handler ?? new SocketsHttpHandler { EnableMultipleHttp2Connections = true } },
            DisposeHttpClient = true,
            // Chunk messages up to 4 MiB plus framing, the server's own upper bound.
            MaxReceiveMessageSize = 5 * 1024 * 1024,
            MaxSendMessageSize = 16 * 1024 * 1024,
        });

    /// <summary>The address of the endpoint speaking exactly <paramref name="protocols"/>.</summary>
    public static Uri Address(KestrelFactory server, HttpProtocols protocols) =>
        server.Services.GetRequiredService<ListeningEndpoints>().Get(protocols);

    private sealed class BearerHandler(string? apiKey) : DelegatingHandler
    {
        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            if (apiKey is not null)
            {
                request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", apiKey);
            }

            return base.SendAsync(request, cancellationToken);
        }
    }
}
