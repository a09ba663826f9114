using System.Diagnostics;
using System.Net.Sockets;
using System.Text;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Tests.Security;

/// <summary>Kestrel's slow-client defences come from the Connections settings; the body size limit is left alone.</summary>
public sealed class ConnectionLimitsTests
{
    [Fact]
    public void Defaults_Close_Idle_And_Slow_Connections_And_Keep_The_Body_Limit()
    {
        using var server = new KestrelFactory();

        var limits = Limits(server);

        Assert.Equal(TimeSpan.FromMinutes(1), limits.KeepAliveTimeout);
        Assert.Equal(TimeSpan.FromSeconds(15), limits.RequestHeadersTimeout);
        Assert.Equal(1024, limits.MinRequestBodyDataRate?.BytesPerSecond);
        Assert.Equal(TimeSpan.FromSeconds(30), limits.MinRequestBodyDataRate?.GracePeriod);
        Assert.Equal(1024, limits.MinResponseDataRate?.BytesPerSecond);
        Assert.Equal(30_000_000, limits.MaxRequestBodySize);
    }

    [Fact]
    public void Settings_Change_The_Limits_And_Zero_Turns_The_Rate_Check_Off()
    {
        using var server = new KestrelFactory();
        server.With("Connections:KeepAliveTimeout", "00:00:30")
            .With("Connections:RequestHeadersTimeout", "00:00:05")
            .With("Connections:MinDataRateBytesPerSecond", "0");

        var limits = Limits(server);

        Assert.Equal(TimeSpan.FromSeconds(30), limits.KeepAliveTimeout);
        Assert.Equal(TimeSpan.FromSeconds(5), limits.RequestHeadersTimeout);
        Assert.Null(limits.MinRequestBodyDataRate);
        Assert.Null(limits.MinResponseDataRate);
    }

    [Theory]
    [InlineData("Connections:RequestHeadersTimeout", "00:00:00")]
    [InlineData("Connections:MinDataRateGracePeriod", "00:00:01")]
    [InlineData("RateLimit:PermitsPerSecond", "0")]
    [InlineData("RateLimit:ConcurrentTransfers", "0")]
    public void Invalid_Limits_Stop_The_Server_At_Start(string key, string value)
    {
        using var server = new KestrelFactory();
        server.With(key, value);

        var error = Assert.ThrowsAny<Exception>(() => server.AddressOf(HttpProtocols.Http1));

        Assert.Contains(key.Split(':')[1], error.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_Client_That_Never_Finishes_Its_Headers_Is_Disconnected()
    {
        using var server = new KestrelFactory();
        server.With("Connections:RequestHeadersTimeout", "00:00:02");
        var address = server.AddressOf(HttpProtocols.Http1);
        using var tcp = new TcpClient();
        await tcp.ConnectAsync(address.Host, address.Port, TestTimeout.Token);
        var stream = tcp.GetStream();
        var clock = Stopwatch.StartNew();

        // Slowloris: a request line and one header, then silence.
        await stream.WriteAsync(Encoding.ASCII.GetBytes("GET /healthz HTTP/1.1\r\nHost: x\r\n"), TestTimeout.Token);
        using var received = new MemoryStream();
        await stream.CopyToAsync(received, TestTimeout.Token);

        Assert.InRange(clock.Elapsed, TimeSpan.FromSeconds(1.5), TimeSpan.FromSeconds(30));
        Assert.StartsWith("HTTP/1.1 408", Encoding.ASCII.GetString(received.ToArray()), StringComparison.Ordinal);
    }

    private static KestrelServerLimits Limits(KestrelFactory server)
    {
        server.AddressOf(HttpProtocols.Http1);
        return server.Services.GetRequiredService<IOptions<KestrelServerOptions>>().Value.Limits;
    }
}
