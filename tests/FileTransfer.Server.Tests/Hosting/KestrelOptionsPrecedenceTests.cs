using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>
/// Kestrel is configured in one place, in one order: product defaults, then the <c>Connections</c>
/// section, then <c>Kestrel:Limits</c> / <c>Kestrel:Sockets</c> from configuration, which win over
/// everything the product sets.
/// </summary>
public sealed class KestrelOptionsPrecedenceTests
{
    [Theory]
    [InlineData("KeepAliveTimeout", "00:00:45", "Connections:KeepAliveTimeout", "00:00:30")]
    [InlineData("RequestHeadersTimeout", "00:00:07", "Connections:RequestHeadersTimeout", "00:00:05")]
    [InlineData("MaxConcurrentConnections", "123", "Connections:MaxConnections", "456")]
    [InlineData("MaxConcurrentConnections", "123", null, null)]
    [InlineData("MinResponseDataRate", "10/00:00:07", "Connections:MinDataRateBytesPerSecond", "2048")]
    [InlineData("MinRequestBodyDataRate", "10/00:00:07", "Connections:MinDataRateGracePeriod", "00:00:40")]
    public void A_Configured_Kestrel_Limit_Wins_Over_The_Product_Default_And_The_Connections_Section(
        string limit, string configured, string? connectionsKey, string? connectionsValue)
    {
        using var factory = new KestrelFactory();
        if (connectionsKey is not null)
        {
            factory.With(connectionsKey, connectionsValue);
        }

        foreach (var (key, value) in LimitSettings(limit, configured))
        {
            factory.With(key, value);
        }

        var limits = Limits(factory);

        Assert.Equal(configured, Describe(limits, limit));
    }

    [Fact]
    public void Kestrel_Limits_Win_Even_Over_A_Kestrel_Registration_Made_After_The_Product()
    {
        using var factory = new LateRegistrationFactory();
        factory.With("Kestrel:Limits:KeepAliveTimeout", "00:00:45")
            .With("Kestrel:Sockets:MaxWriteBufferSize", "65536");

        Assert.Equal(TimeSpan.FromSeconds(45), Limits(factory).KeepAliveTimeout);
        Assert.Equal(65536, factory.Services.GetRequiredService<IOptions<SocketTransportOptions>>().Value.MaxWriteBufferSize);
    }

    [Fact]
    public void Without_Kestrel_Limits_The_Connections_Section_Applies()
    {
        using var factory = new KestrelFactory();
        factory.With("Connections:KeepAliveTimeout", "00:00:30").With("Connections:MaxConnections", "456");

        var limits = Limits(factory);

        Assert.Equal(TimeSpan.FromSeconds(30), limits.KeepAliveTimeout);
        Assert.Equal(456, limits.MaxConcurrentConnections);
    }

    private static IEnumerable<(string Key, string Value)> LimitSettings(string limit, string value)
    {
        if (value.Split('/') is [var rate, var grace])
        {
            yield return ($"Kestrel:Limits:{limit}:BytesPerSecond", rate);
            yield return ($"Kestrel:Limits:{limit}:GracePeriod", grace);
        }
        else
        {
            yield return ($"Kestrel:Limits:{limit}", value);
        }
    }

    private static string? Describe(KestrelServerLimits limits, string limit) => limit switch
    {
        nameof(KestrelServerLimits.KeepAliveTimeout) => limits.KeepAliveTimeout.ToString(),
        nameof(KestrelServerLimits.RequestHeadersTimeout) => limits.RequestHeadersTimeout.ToString(),
        nameof(KestrelServerLimits.MaxConcurrentConnections) => limits.MaxConcurrentConnections?.ToString(System.Globalization.CultureInfo.InvariantCulture),
        nameof(KestrelServerLimits.MinResponseDataRate) => Rate(limits.MinResponseDataRate),
        nameof(KestrelServerLimits.MinRequestBodyDataRate) => Rate(limits.MinRequestBodyDataRate),
        _ => throw new ArgumentOutOfRangeException(nameof(limit)),
    };

    private static string? Rate(MinDataRate? rate) =>
        rate is null ? null : FormattableString.Invariant($"{rate.BytesPerSecond}/{rate.GracePeriod}");

    private static KestrelServerLimits Limits(FileTransferFactory factory)
    {
        factory.StartServer();
        return factory.Services.GetRequiredService<IOptions<KestrelServerOptions>>().Value.Limits;
    }

    /// <summary>A host that, like a careless extension, sets Kestrel options after the product registered its own.</summary>
    private sealed class LateRegistrationFactory : FileTransferFactory
    {
        protected override void ConfigureWebHost(IWebHostBuilder builder)
        {
            base.ConfigureWebHost(builder);
            builder.ConfigureTestServices(services =>
            {
                services.Configure<KestrelServerOptions>(kestrel => kestrel.Limits.KeepAliveTimeout = TimeSpan.FromMinutes(3));
                services.Configure<SocketTransportOptions>(sockets => sockets.MaxWriteBufferSize = 4096);
            });
        }
    }
}
