using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using FileTransfer.Server.Hosting;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>
/// Kestrel's own socket listener, failing every accept(2). Shutting a listening socket down makes
/// accept fail at once (EINVAL) the way the descriptor limit does (EMFILE): Kestrel's listener
/// catches the SocketException, logs event 19 for connection "(null)" and calls accept again. The
/// test counts those log events to see how often Kestrel tried; the server itself never reads them.
/// </summary>
public sealed class AcceptBackoffTests
{
    [Fact]
    public async Task Failing_Accepts_On_Kestrels_Listener_Are_Retried_With_Back_Off_Not_In_A_Busy_Loop()
    {
        var counts = new EventCounter();
        using var loggers = LoggerFactory.Create(logging => logging.SetMinimumLevel(LogLevel.Trace).AddProvider(counts));
        Socket? listenSocket = null;
        var sockets = new SocketTransportOptions
        {
            CreateBoundListenSocket = endpoint => listenSocket = SocketTransportOptions.CreateDefaultBoundListenSocket(endpoint),
        };
        var gate = new ConnectionGate(Options.Create(new KestrelServerOptions()), Options.Create(new ConnectionLimitsOptions()), new DescriptorBudget(null, null));
        var listener = await new GuardedTransportFactory(Options.Create(sockets), loggers, gate).BindAsync(new IPEndPoint(IPAddress.Loopback, 0), TestTimeout.Token);
        var clock = Stopwatch.StartNew();

        listenSocket!.Shutdown(SocketShutdown.Receive);
        var accept = Task.Run(() => listener.AcceptAsync(TestTimeout.Token).AsTask());

        // The behaviour under test is a rate: how many accepts fail in two seconds of real time.
        await Task.Delay(TimeSpan.FromSeconds(2));
        await listener.UnbindAsync(TestTimeout.Token);

        // 50, 100, 200, 400, 800 ms of back-off fit in two seconds: a handful of attempts, where the
        // bare listener retries without pause (about 1,600 times in these two seconds, measured).
        Assert.Null(await accept.WaitAsync(TimeSpan.FromSeconds(10)));
        Assert.InRange(counts.AcceptFailures, 2, 10);
        Assert.True(counts.BackoffLogged);
        // The two seconds are timed by a timer, which may fire a clock tick before the stopwatch reads 2 s.
        Assert.InRange(clock.Elapsed, TimeSpan.FromSeconds(1.9), TimeSpan.FromSeconds(10));
        await listener.DisposeAsync();
    }

    /// <summary>Counts Kestrel's "accept failed" events rather than keeping them: without the back-off there are thousands.</summary>
    private sealed class EventCounter : ILoggerProvider, ILogger
    {
        private int _acceptFailures;

        public int AcceptFailures => Volatile.Read(ref _acceptFailures);

        public bool BackoffLogged { get; private set; }

        public ILogger CreateLogger(string categoryName) => this;

        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (eventId.Id == 19 && state is IReadOnlyList<KeyValuePair<string, object?>> fields && fields.Any(f => f.Key == "ConnectionId" && "(null)".Equals(f.Value)))
            {
                Interlocked.Increment(ref _acceptFailures);
            }
            else if (eventId.Id == 5 && formatter(state, exception).StartsWith("Accepting on", StringComparison.Ordinal))
            {
                BackoffLogged = true;
            }
        }

        public void Dispose()
        {
        }
    }
}
