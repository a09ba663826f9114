using System.Net;
using System.Net.Sockets;
using FileTransfer.Server.Hosting;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>The pieces of the connection guard that need no server: the budget, client keys, the accept back-off.</summary>
public sealed class ConnectionGuardUnitTests
{
    private const string ProcLimits = """
        Limit                     Soft Limit           Hard Limit           Units
        Max cpu time              unlimited            unlimited            seconds
        Max open files            1024                 524288               files
        Max locked memory         8388608              8388608              bytes
        """;

    [Fact]
    public void The_Soft_Descriptor_Limit_Is_Read_From_Proc_Self_Limits()
    {
        Assert.Equal(1024, DescriptorBudget.ParseLimit(ProcLimits));
        Assert.Null(DescriptorBudget.ParseLimit(ProcLimits.Replace("1024      ", "unlimited ", StringComparison.Ordinal)));
        Assert.Null(DescriptorBudget.ParseLimit("Max cpu time unlimited unlimited seconds"));
    }

    [Theory]
    [InlineData(1024L, 280, 308L)]
    [InlineData(20000L, 300, 9786L)]
    [InlineData(512L, 500, DescriptorBudget.MinimumCap)]
    [InlineData(null, 280, null)]
    public void The_Cap_Is_Half_Of_What_Is_Free_After_The_Reserve(long? limit, int open, long? cap)
    {
        Assert.Equal(cap, new DescriptorBudget(limit, open).DerivedCap);
    }

    [Fact]
    public void This_Process_Has_A_Measured_Budget_On_Linux()
    {
        var budget = new DescriptorBudget();

        Assert.Equal(OperatingSystem.IsLinux(), budget.Limit is not null && budget.OpenAtStart > 0);
    }

    [Theory]
    [InlineData(null, 400L, 80L)]
    [InlineData(null, 40L, 8L)]
    [InlineData(null, 2L, 1L)]
    [InlineData(7, 400L, 7L)]
    [InlineData(0, 400L, null)]
    [InlineData(null, null, null)]
    [InlineData(7, null, 7L)]
    public void One_Address_Alone_Gets_A_Fifth_Of_The_Cap_Or_The_Configured_Ceiling(int? configured, long? cap, long? expected)
    {
        var gate = Gate(cap, configured);

        Assert.Equal(expected, gate.MostForOneClient);
        Assert.Equal(expected ?? 1000, Fill(gate, IPAddress.Parse("192.0.2.1"), 1000));
    }

    [Fact]
    public void Each_Further_Address_Gets_A_Quarter_Of_What_Is_Still_Free_And_Four_Leave_Four_Tenths()
    {
        var gate = Gate(40, null);

        var held = Enumerable.Range(2, 4).Select(i => Fill(gate, IPAddress.Parse($"192.0.2.{i}"), 40)).ToList();

        // Under the old rule (a quarter of the cap each) these four held all 40 slots.
        Assert.Equal([8, 7, 5, 4], held);
        Assert.True(gate.TryEnter(IPAddress.Parse("192.0.2.99"), out _));
    }

    [Fact]
    public void An_Address_That_Holds_Nothing_Is_Let_In_While_Any_Slot_Is_Free()
    {
        var gate = Gate(10, null);
        for (var i = 0; i < 9; i++)
        {
            Assert.True(gate.TryEnter(IPAddress.Parse($"192.0.2.{i + 1}"), out _));
        }

        Assert.True(gate.TryEnter(IPAddress.Parse("192.0.2.100"), out _));
        Assert.False(gate.TryEnter(IPAddress.Parse("192.0.2.1"), out var held));
        Assert.Equal(1, held);
    }

    [Fact]
    public void A_Client_Over_Its_Share_Is_Refused_Until_One_Of_Its_Connections_Leaves()
    {
        var gate = Gate(100, 2);
        var client = IPAddress.Parse("192.0.2.7");

        Assert.True(gate.TryEnter(client, out _));
        Assert.True(gate.TryEnter(client, out _));
        Assert.False(gate.TryEnter(client, out var held));
        Assert.Equal(2, held);
        Assert.True(gate.TryEnter(IPAddress.Parse("192.0.2.8"), out _));
        gate.Leave(client);
        Assert.True(gate.TryEnter(client, out _));
        Assert.Equal(2, gate.CountOf(client));
    }

    [Theory]
    [InlineData("192.0.2.7", "192.0.2.7")]
    [InlineData("::ffff:192.0.2.7", "192.0.2.7")]
    [InlineData("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::")]
    [InlineData("2001:db8:1:2::1", "2001:db8:1:2::")]
    public void Clients_Are_Counted_By_Ipv4_Address_Or_Ipv6_Slash_64(string remote, string key)
    {
        Assert.Equal(IPAddress.Parse(key), ClientAddress.Of(new IPEndPoint(IPAddress.Parse(remote), 443)));
    }

    [Fact]
    public async Task The_Accept_Loop_Backs_Off_While_Accept_Fails_Instead_Of_Spinning()
    {
        // Like Kestrel's listener at the descriptor limit: every accept(2) fails, it catches the
        // SocketException and tries again at once, for as long as the token lets it.
        var listener = new GuardedConnectionListener(Gate(null, null), NullLogger.Instance);
        var attempts = 0;
        var failUntil = DateTime.UtcNow + TimeSpan.FromSeconds(1);
        listener.Start(new FakeListener(async token =>
        {
            while (DateTime.UtcNow < failUntil)
            {
                token.ThrowIfCancellationRequested();
                attempts++;
                FailAndSwallow(SocketError.TooManyOpenSockets);
                await Task.Yield();
            }

            return new FakeConnection();
        }));

        var connection = await listener.AcceptAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(10));

        Assert.NotNull(connection);
        Assert.InRange(attempts, 1, 20);
    }

    [Theory]
    [InlineData(SocketError.ConnectionReset)]
    [InlineData(SocketError.ConnectionAborted)]
    public async Task A_Connection_Reset_While_Queued_Is_Retried_At_Once(SocketError error)
    {
        var listener = new GuardedConnectionListener(Gate(null, null), NullLogger.Instance);
        var calls = 0;
        listener.Start(new FakeListener(token =>
        {
            calls++;
            FailAndSwallow(error);
            token.ThrowIfCancellationRequested();
            return Task.FromResult<ConnectionContext?>(new FakeConnection());
        }));

        Assert.NotNull(await listener.AcceptAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(10)));
        Assert.Equal(1, calls);
    }

    [Fact]
    public async Task A_Socket_Failure_Outside_The_Accept_Call_Is_No_Signal()
    {
        // Another connection's failure, thrown while this accept waits, is not this accept's.
        var listener = new GuardedConnectionListener(Gate(null, null), NullLogger.Instance);
        var arrived = new TaskCompletionSource<ConnectionContext?>(TaskCreationOptions.RunContinuationsAsynchronously);
        var calls = 0;
        listener.Start(new FakeListener(token =>
        {
            calls++;
            return arrived.Task.WaitAsync(token);
        }));

        var accept = listener.AcceptAsync().AsTask();
        await Task.Run(() => FailAndSwallow(SocketError.TooManyOpenSockets));
        arrived.SetResult(new FakeConnection());

        Assert.NotNull(await accept.WaitAsync(TimeSpan.FromSeconds(10)));
        Assert.Equal(1, calls);
    }

    [Fact]
    public async Task An_Exception_From_The_Transport_Does_Not_End_The_Accept_Loop()
    {
        var listener = new GuardedConnectionListener(Gate(null, null), NullLogger.Instance);
        var calls = 0;
        listener.Start(new FakeListener(_ => ++calls < 3 ? throw new IOException("pipe2: Too many open files") : Task.FromResult<ConnectionContext?>(new FakeConnection())));

        var connection = await listener.AcceptAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(10));

        Assert.NotNull(connection);
        Assert.Equal(3, calls);
    }

    [Fact]
    public async Task Unbinding_Ends_An_Accept_That_Waits_For_A_Slot()
    {
        var gate = Gate(1, null);
        await gate.WaitAsync(CancellationToken.None);
        var listener = new GuardedConnectionListener(gate, NullLogger.Instance);
        listener.Start(new FakeListener(_ => Task.FromResult<ConnectionContext?>(new FakeConnection())));

        var accept = listener.AcceptAsync().AsTask();
        await listener.UnbindAsync();

        Assert.Null(await accept.WaitAsync(TimeSpan.FromSeconds(10)));
    }

    [Fact]
    public async Task Disposing_An_Admitted_Connection_Gives_Its_Slot_Back_Once()
    {
        var gate = Gate(1, null);
        var listener = new GuardedConnectionListener(gate, NullLogger.Instance);
        listener.Start(new FakeListener(_ => Task.FromResult<ConnectionContext?>(new FakeConnection())));

        var first = await listener.AcceptAsync();
        var second = listener.AcceptAsync().AsTask();
        Assert.False(second.IsCompleted); // the only slot is held: nothing to wait for
        await first!.DisposeAsync();
        await first.DisposeAsync();

        Assert.NotNull(await second.WaitAsync(TimeSpan.FromSeconds(10)));
        var third = listener.AcceptAsync().AsTask();
        Assert.False(third.IsCompleted);
    }

    /// <summary>Enters <paramref name="client"/> until it is refused (or <paramref name="most"/> times); how many it holds then.</summary>
    private static int Fill(ConnectionGate gate, IPAddress client, int most)
    {
        var held = 0;
        while (held < most && gate.TryEnter(client, out _))
        {
            held++;
        }

        return held;
    }

    private static ConnectionGate Gate(long? cap, int? perClient)
    {
        var kestrel = new KestrelServerOptions();
        kestrel.Limits.MaxConcurrentConnections = cap;
        return new ConnectionGate(Options.Create(kestrel), Options.Create(new ConnectionLimitsOptions { MaxConnectionsPerClient = perClient }), new DescriptorBudget(null, null));
    }

    // What the runtime throws when accept(2) fails, and what Kestrel's listener does with it.
    private static void FailAndSwallow(SocketError error)
    {
        try
        {
            throw new SocketException((int)error);
        }
        catch (SocketException)
        {
        }
    }

    private sealed class FakeListener(Func<CancellationToken, Task<ConnectionContext?>> accept) : IConnectionListener
    {
        public EndPoint EndPoint { get; } = new IPEndPoint(IPAddress.Loopback, 1);

        public async ValueTask<ConnectionContext?> AcceptAsync(CancellationToken cancellationToken = default) => await accept(cancellationToken);

        public ValueTask UnbindAsync(CancellationToken cancellationToken = default) => default;

        public ValueTask DisposeAsync() => default;
    }

    private sealed class FakeConnection : ConnectionContext
    {
        public override System.IO.Pipelines.IDuplexPipe Transport { get; set; } = null!;

        public override string ConnectionId { get; set; } = "fake";

        public override IFeatureCollection Features { get; } = new FeatureCollection();

        public override IDictionary<object, object?> Items { get; set; } = new Dictionary<object, object?>();

        public override EndPoint? RemoteEndPoint { get; set; } = new IPEndPoint(IPAddress.Parse("192.0.2.9"), 50000);

        public override void Abort(ConnectionAbortedException abortReason)
        {
        }
    }
}
