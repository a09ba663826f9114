using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using FileTransfer.Server.Hosting;
using FileTransfer.Server.Tests.Diagnostics;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>The connection cap, the per-client limit and the first-byte timeout on real Kestrel.</summary>
public sealed class ConnectionGuardTests
{
    private static readonly IPAddress Attacker = IPAddress.Parse("127.0.0.2");

    [Fact]
    public async Task A_Connection_That_Sends_Nothing_Is_Closed_After_The_First_Byte_Timeout()
    {
        using var server = new KestrelFactory();
        server.With("Connections:FirstByteTimeout", "00:00:01");
        var address = server.AddressOf(HttpProtocols.Http1);
        using var tcp = new TcpClient();
        await tcp.ConnectAsync(address.Host, address.Port, TestTimeout.Token);
        var clock = Stopwatch.StartNew();

        // Kestrel alone would keep it for the keep-alive timeout (one minute).
        Assert.True(await ClosedByServerAsync(tcp, TimeSpan.FromSeconds(20)));
        Assert.InRange(clock.Elapsed, TimeSpan.FromSeconds(0.5), TimeSpan.FromSeconds(10));
    }

    [Fact]
    public async Task Clients_That_Reset_Before_Sending_Anything_Leave_No_Error_In_The_Log()
    {
        var logs = new LogCapture();
        using var server = new KestrelFactory();

        // A per-client ceiling makes the gate count each address's connections: the wait below reads it.
        server.WithLogs(logs).With("Connections:MaxConnectionsPerClient", "100");
        var address = server.AddressOf(HttpProtocols.Http1);

        for (var i = 0; i < 20; i++)
        {
            using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            await socket.ConnectAsync(IPAddress.Loopback, address.Port, TestTimeout.Token);

            // Linger 0: close sends RST instead of FIN.
            socket.LingerState = new LingerOption(true, 0);
        }

        using var client = KestrelFactory.ClientFor(address, HttpVersion.Version11);
        Assert.Equal("Healthy", await client.GetStringAsync("/healthz", TestTimeout.Token));

        // Accepted in order, so every reset connection was accepted before the health check's; each
        // leaves the gate when the server is done with it (the socket closed, anything logged).
        var gate = server.Services.GetRequiredService<ConnectionGate>();
        await Eventually.UntilAsync(() => gate.CountOf(IPAddress.Loopback) <= 1, "the reset connections closed by the server");
        Assert.DoesNotContain(logs.Entries, e => e.Level >= LogLevel.Error);
    }

    [Fact]
    public async Task Keep_Alive_Between_Requests_Is_Not_Cut_By_The_First_Byte_Timeout()
    {
        using var server = new KestrelFactory();
        server.With("Connections:FirstByteTimeout", "00:00:01");
        var address = server.AddressOf(HttpProtocols.Http1);
        using var tcp = new TcpClient();
        await tcp.ConnectAsync(address.Host, address.Port, TestTimeout.Token);
        var stream = tcp.GetStream();

        Assert.StartsWith("HTTP/1.1 200", await RequestAsync(stream), StringComparison.Ordinal);

        // The behaviour under test: idle between requests for longer than the first-byte timeout.
        await Task.Delay(TimeSpan.FromSeconds(2.5));
        Assert.StartsWith("HTTP/1.1 200", await RequestAsync(stream), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Http2_Prior_Knowledge_Passes_The_First_Byte_Check_Untouched()
    {
        using var server = new KestrelFactory();
        server.With("Connections:FirstByteTimeout", "00:00:01");
        using var client = KestrelFactory.ClientFor(server.AddressOf(HttpProtocols.Http2), HttpVersion.Version20);

        using var response = await client.GetAsync("/healthz", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(HttpVersion.Version20, response.Version);
    }

    [Fact]
    public async Task Connections_Over_The_Per_Client_Limit_Are_Closed_While_Other_Addresses_Are_Served()
    {
        using var server = new KestrelFactory();
        server.With("Connections:MaxConnectionsPerClient", "3");
        var address = server.AddressOf(HttpProtocols.Http1);
        using var client = KestrelFactory.ClientFor(address, HttpVersion.Version11);

        using var flood = await IdleConnections.OpenAsync(address, Attacker, 10, TimeSpan.FromSeconds(5));

        Assert.Equal(3, await flood.WaitUntilOpenAtMostAsync(3, TimeSpan.FromSeconds(10)));
        Assert.Equal("Healthy", await client.GetStringAsync("/healthz", TestTimeout.Token));
        Assert.Equal(3, server.Services.GetRequiredService<ConnectionGate>().CountOf(Attacker));
    }

    [Fact]
    public async Task Idle_Connections_From_Four_Addresses_Leave_Slots_For_Everyone_Else()
    {
        // Under the old rule each address could hold a quarter of the cap: these four held all 40
        // slots, and /healthz waited in the kernel's queue until the first-byte timeout freed one.
        using var server = new KestrelFactory();
        server.With("Connections:MaxConnections", "40").With("Connections:FirstByteTimeout", "00:01:00");
        var address = server.AddressOf(HttpProtocols.Http1);
        using var flood = new IdleConnections();
        await Task.WhenAll(Enumerable.Range(2, 4).Select(i => flood.AddAsync(address, IPAddress.Parse($"127.0.0.{i}"), 40, TimeSpan.FromSeconds(5))));
        var gate = server.Services.GetRequiredService<ConnectionGate>();
        using var client = KestrelFactory.ClientFor(address, HttpVersion.Version11);
        var clock = Stopwatch.StartNew();

        Assert.Equal("Healthy", await client.GetStringAsync("/healthz", TestTimeout.Token).WaitAsync(TimeSpan.FromSeconds(10)));

        Assert.InRange(clock.Elapsed, TimeSpan.Zero, TimeSpan.FromSeconds(2));
        var held = Enumerable.Range(2, 4).Sum(i => gate.CountOf(IPAddress.Parse($"127.0.0.{i}")));
        Assert.InRange(held, 4, 30);
    }

    [Fact]
    public async Task Over_The_Cap_A_New_Connection_Waits_Until_A_Slot_Frees()
    {
        using var server = new KestrelFactory();
        server.With("Connections:MaxConnections", "4").With("Connections:MaxConnectionsPerClient", "0");
        var address = server.AddressOf(HttpProtocols.Http1);
        using var flood = await IdleConnections.OpenAsync(address, Attacker, 4, TimeSpan.FromSeconds(5));
        using var client = KestrelFactory.ClientFor(address, HttpVersion.Version11);

        var health = client.GetStringAsync("/healthz", TestTimeout.Token);

        // The behaviour under test is a wait: the request is not answered while every slot is held.
        var first = await Task.WhenAny(health, Task.Delay(TimeSpan.FromSeconds(1.5)));
        Assert.NotSame(health, first);
        flood.Dispose();

        Assert.Equal("Healthy", await health.WaitAsync(TimeSpan.FromSeconds(10)));
        Assert.Equal(4, server.Services.GetRequiredService<IOptions<KestrelServerOptions>>().Value.Limits.MaxConcurrentConnections);
    }

    /// <summary>True when the server ends the connection (FIN or reset) within <paramref name="within"/>.</summary>
    private static async Task<bool> ClosedByServerAsync(TcpClient tcp, TimeSpan within)
    {
        using var timeout = new CancellationTokenSource(within);
        try
        {
            return await tcp.GetStream().ReadAsync(new byte[1], timeout.Token) == 0;
        }
        catch (IOException exception) when (exception.InnerException is SocketException { SocketErrorCode: SocketError.ConnectionReset })
        {
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    // One whole response: a read may return only part of it (the last chunk of a chunked body can
    // come in a segment of its own), and what is left would be taken for the next response.
    private static async Task<string> RequestAsync(NetworkStream stream)
    {
        await stream.WriteAsync(Encoding.ASCII.GetBytes("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"), TestTimeout.Token);
        var response = new StringBuilder();
        var buffer = new byte[4096];
        while (!IsComplete(response.ToString()))
        {
            var read = await stream.ReadAsync(buffer, TestTimeout.Token);
            if (read == 0)
            {
                break;
            }

            response.Append(Encoding.ASCII.GetString(buffer, 0, read));
        }

        return response.ToString();
    }

    private static bool IsComplete(string response)
    {
        var headersEnd = response.IndexOf("\r\n\r\n", StringComparison.Ordinal);
        if (headersEnd < 0)
        {
            return false;
        }

        var headers = response[..headersEnd];
        var length = System.Text.RegularExpressions.Regex.Match(headers, @"(?im)^content-length:\s*(\d+)");
        return length.Success
            ? response.Length - (headersEnd + 4) >= int.Parse(length.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture)
            : response.EndsWith("0\r\n\r\n", StringComparison.Ordinal);
    }
}
