using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>Registers everything that shapes Kestrel: <see cref="KestrelTuning"/>, the memory pool, the guarded transport and its check.</summary>
internal static class KestrelRegistration
{
    public static IServiceCollection AddKestrelTuning(this IServiceCollection services)
    {
        services.AddOptions<ConnectionLimitsOptions>().BindConfiguration(ConnectionLimitsOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<ConnectionLimitsOptions>, ConnectionLimitsOptionsAttributes>();
        services.AddSingleton<ListeningEndpoints>();
        services.AddSingleton<DescriptorBudget>();

        // The product's only Kestrel and socket-transport option setters: one class, one documented order.
        services.AddSingleton<KestrelTuning>();
        services.AddSingleton<IConfigureOptions<KestrelServerOptions>>(sp => sp.GetRequiredService<KestrelTuning>());
        services.AddSingleton<IPostConfigureOptions<KestrelServerOptions>>(sp => sp.GetRequiredService<KestrelTuning>());
        services.AddSingleton<IConfigureOptions<SocketTransportOptions>>(sp => sp.GetRequiredService<KestrelTuning>());
        services.AddSingleton<IPostConfigureOptions<SocketTransportOptions>>(sp => sp.GetRequiredService<KestrelTuning>());

        services.RemoveAll<IMemoryPoolFactory<byte>>();
        services.AddSingleton<IMemoryPoolFactory<byte>, TransferMemoryPoolFactory>();

        services.AddSingleton<ConnectionGate>();
        services.AddSingleton<IConnectionListenerFactory, GuardedTransportFactory>();

        // Where QUIC is supported the host registers its listener (HTTP/3); it would take connections
        // past the guard, so it goes, and ConnectionLayerCheck refuses one registered later.
        services.RemoveAll<IMultiplexedConnectionListenerFactory>();
        services.AddHostedService<ConnectionLayerCheck>();
        return services;
    }
}
