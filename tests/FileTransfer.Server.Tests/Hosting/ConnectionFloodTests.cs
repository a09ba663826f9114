using System.Diagnostics;
using System.Net;
using System.Security.Cryptography;
using System.Text.RegularExpressions;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>
/// The built server under a low descriptor limit (RLIMIT_NOFILE 1024, what the issue reproduced
/// with; the runtime alone holds about 280), flooded with connections that never send a byte from
/// addresses other than 127.0.0.1. Before the connection cap, per-client limit and first-byte
/// timeout, the process ran out of descriptors and exited ("Out of memory.").
/// </summary>
public sealed partial class ConnectionFloodTests : IDisposable
{
    private const int DescriptorLimit = 1024;

    /// <summary>The product's default first-byte timeout.</summary>
    private static readonly TimeSpan DefaultFirstByteTimeout = TimeSpan.FromSeconds(10);

    /// <summary>Shorter, for the test whose flood must be let in by the timeout in rounds.</summary>
    private static readonly TimeSpan ShortFirstByteTimeout = TimeSpan.FromSeconds(3);

    private readonly TempStorage _storage = new();
    private readonly byte[] _file;

    public ConnectionFloodTests()
    {
        _file = _storage.WriteRandom("big.bin", 3 * 1024 * 1024 + 12345);
    }

    [Fact]
    public async Task More_Idle_Connections_From_One_Address_Than_Descriptors_Leave_Health_And_Downloads_Served()
    {
        await using var server = await StartAsync(firstByteTimeout: null);
        var clock = Stopwatch.StartNew();

        var attacker = IPAddress.Parse("127.0.0.2");
        using var flood = await IdleConnections.OpenAsync(server.Http1, attacker, 1500, TimeSpan.FromSeconds(2));

        // On a busy machine the server can accept too slowly for every handshake to finish in 2 s (the
        // listen backlog fills and a SYN waits for its retransmission): top the flood up, with longer
        // handshakes, so that it does hold more connections than the server has descriptors.
        for (var round = 0; round < 3 && flood.Count <= DescriptorLimit; round++)
        {
            await flood.AddAsync(server.Http1, attacker, 1500 - flood.Count, TimeSpan.FromSeconds(5));
        }

        // The attacker keeps only its share; everything past it is closed at once, not held.
        Assert.True(flood.Count > DescriptorLimit, $"only {flood.Count} connections were opened");
        await AssertServedAsync(server, TimeSpan.FromSeconds(15));
        var (_, perClient) = LimitsOf(server);
        Assert.InRange(await flood.WaitUntilOpenAtMostAsync(perClient, TimeSpan.FromSeconds(5)), 1, perClient);

        // The share itself is closed once it has sent nothing for the first-byte timeout.
        Assert.Equal(0, await flood.WaitUntilAllClosedAsync(DefaultFirstByteTimeout + TimeSpan.FromSeconds(10)));
        await AssertServedAsync(server, TimeSpan.FromSeconds(15));
        Assert.InRange(clock.Elapsed, TimeSpan.Zero, TimeSpan.FromSeconds(60));
    }

    [Fact]
    public async Task A_Flood_From_Many_Addresses_Is_Held_To_The_Cap_And_Health_And_Downloads_Still_Answer()
    {
        await using var server = await StartAsync(ShortFirstByteTimeout);
        var clock = Stopwatch.StartNew();
        using var flood = new IdleConnections();

        // Eight attackers, each under its own share, together far over the cap.
        await Task.WhenAll(Enumerable.Range(2, 8).Select(i =>
            flood.AddAsync(server.Http1, IPAddress.Parse($"127.0.1.{i}"), 200, TimeSpan.FromSeconds(2))));

        var (cap, _) = LimitsOf(server);
        Assert.True(flood.Count > cap, $"{flood.Count} connections do not fill the cap of {cap}");

        // New connections wait for a slot instead of taking descriptors; idle ones free theirs.
        await AssertServedAsync(server, ShortFirstByteTimeout * 4);
        Assert.Equal(0, await flood.WaitUntilAllClosedAsync(ShortFirstByteTimeout * 4));
        await AssertServedAsync(server, TimeSpan.FromSeconds(15));
        Assert.InRange(clock.Elapsed, TimeSpan.Zero, TimeSpan.FromSeconds(60));
    }

    private async Task<ServerProcess> StartAsync(TimeSpan? firstByteTimeout)
    {
        var environment = new Dictionary<string, string>
        {
            ["Storage__RootPath"] = _storage.RootPath,
            ["Auth__ApiKeys__0__Key"] = FileTransferFactory.TestKey,
            ["Auth__ApiKeys__0__Scopes__0"] = "read",
        };
        if (firstByteTimeout is { } timeout)
        {
            environment["Connections__FirstByteTimeout"] = timeout.ToString();
        }

        return await ServerProcess.StartAsync(environment, new ServerProcessOptions { DescriptorLimit = DescriptorLimit });
    }

    /// <summary>The cap the server derived from its descriptor limit and the most one address may hold alone, as it logged them.</summary>
    private static (int Cap, int PerClient) LimitsOf(ServerProcess server)
    {
        var match = LimitsLine().Match(server.Output);
        Assert.True(match.Success, server.Output);
        var cap = int.Parse(match.Groups["cap"].Value, System.Globalization.CultureInfo.InvariantCulture);
        var open = int.Parse(match.Groups["open"].Value, System.Globalization.CultureInfo.InvariantCulture);

        // Half of what the limit leaves after the descriptors in use and a reserve of 128.
        Assert.Equal((DescriptorLimit - open - 128) / 2, cap);
        return (cap, int.Parse(match.Groups["client"].Value, System.Globalization.CultureInfo.InvariantCulture));
    }

    [GeneratedRegex(@"Connection cap: (?<cap>\d+); per client address: (?<client>\d+) when alone, [^(]*\(descriptor limit 1024, (?<open>\d+) open at start\)")]
    private static partial Regex LimitsLine();

    /// <summary>The process is alive, /healthz answers, and an authenticated download arrives whole, within <paramref name="within"/>.</summary>
    private async Task AssertServedAsync(ServerProcess server, TimeSpan within)
    {
        using var timeout = new CancellationTokenSource(within);
        using var client = KestrelFactory.ClientFor(server.Http1, HttpVersion.Version11);

        Assert.Equal("Healthy", await client.GetStringAsync("/healthz", timeout.Token));
        var bytes = await client.GetByteArrayAsync("/api/files/big.bin", timeout.Token);
        Assert.Equal(SHA256.HashData(_file), SHA256.HashData(bytes));
        Assert.False(server.HasExited, server.Output);
        Assert.DoesNotContain("Out of memory", server.Output, StringComparison.Ordinal);
    }

    public void Dispose() => _storage.Dispose();
}
