using FileTransfer.Client;
using FileTransfer.Client.Transport;
using FileTransfer.Client.Transport.Grpc;
using FileTransfer.Client.Transport.Rest;
using FileTransfer.Protos.V1;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers <see cref="FileTransferClient"/> with dependency injection.</summary>
public static class FileTransferServiceCollectionExtensions
{
    /// <summary>The name of the <c>IHttpClientFactory</c> client REST uses; configure it further with <c>services.AddHttpClient(HttpClientName)</c>.</summary>
    public const string HttpClientName = "FileTransfer.Client";

    /// <summary>
    /// Registers <see cref="FileTransferClient"/> (transient) over connections the factories manage:
    /// <c>IHttpClientFactory</c> for REST, <c>Grpc.Net.ClientFactory</c> for gRPC.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Sets the protocol, server, API key, TLS and transfer settings; validated when the first client is created.</param>
    /// <returns>The service collection.</returns>
    public static IServiceCollection AddFileTransferClient(this IServiceCollection services, Action<FileTransferClientOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configure);
        services.AddOptions<FileTransferClientOptions>()
            .Configure(configure)
            .Validate(IsValid, "FileTransferClientOptions has a setting out of range (see FileTransferClientOptions.Validate).");

        services.AddHttpClient(HttpClientName)
            .ConfigurePrimaryHttpMessageHandler(HandlerFor)
            .ConfigureHttpClient(client => client.Timeout = Timeout.InfiniteTimeSpan);

        services.AddGrpcClient<FileService.FileServiceClient>((provider, factory) =>
                factory.Address = provider.GetRequiredService<IOptions<FileTransferClientOptions>>().Value.EffectiveAddress)
            .ConfigurePrimaryHttpMessageHandler(HandlerFor)
            .ConfigureChannel(channel => channel.MaxReceiveMessageSize = FileTransferClient.MaxReceiveMessageSize);

        services.TryAddTransient(provider =>
        {
            var options = provider.GetRequiredService<IOptions<FileTransferClientOptions>>().Value;
            IFileTransport transport = options.Protocol == FileTransferProtocol.Grpc
                ? new GrpcTransport(provider.GetRequiredService<FileService.FileServiceClient>(), options.EffectiveAddress, options.ApiKey, owned: null)
                : new RestTransport(provider.GetRequiredService<IHttpClientFactory>().CreateClient(HttpClientName),
                    options.EffectiveAddress, options.ApiKey, options.HttpVersion, ownsClient: true);
            return new FileTransferClient(transport, options);
        });
        return services;
    }

    // The options' TLS settings (trusted certificates, accepting any) go into every handler the factories build.
    private static SocketsHttpHandler HandlerFor(IServiceProvider provider) =>
        HttpHandlers.Create(provider.GetRequiredService<IOptions<FileTransferClientOptions>>().Value);

    private static bool IsValid(FileTransferClientOptions options)
    {
        try
        {
            options.Validate();
            return true;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }
}
