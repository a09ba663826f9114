using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// What the server does when told to stop (SIGTERM, Ctrl+C), before Kestrel stops listening: it
/// turns not ready (<c>/healthz/ready</c> 503, gRPC health NOT_SERVING), refuses new transfers
/// (<see cref="DrainGate"/>: 503 with <c>Retry-After</c>, gRPC <c>UNAVAILABLE</c>) and waits up to
/// <see cref="ShutdownOptions.DrainSeconds"/> for the running ones. Those still running then are cut
/// (Kestrel aborts their connections), and it waits, bounded, until each has ended, which saves
/// what an upload session received, before the host stops the rest. It runs in
/// <see cref="IHostedLifecycleService.StoppingAsync"/>, which the host calls before any service's
/// StopAsync, so Kestrel still answers, with refusals, while it drains.
/// </summary>
internal sealed partial class ShutdownDrain(IServer server, IOptions<ShutdownOptions> options, TimeProvider time, ILogger<ShutdownDrain> logger)
    : IHostedLifecycleService
{
    /// <summary>How long the cut transfers get to end (and save their sessions) once their connections are aborted.</summary>
    internal static readonly TimeSpan SaveGrace = TimeSpan.FromSeconds(15);

    private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(50);

    private int _running;
    private volatile bool _draining;

    /// <summary>True from the stop signal on: not ready, new transfers refused.</summary>
    public bool IsDraining => _draining;

    /// <summary>Transfers running now.</summary>
    public int Running => Volatile.Read(ref _running);

    /// <summary>Counts a transfer in; false (and nothing counted) once draining.</summary>
    public bool TryEnter()
    {
        Interlocked.Increment(ref _running);
        if (!_draining)
        {
            return true;
        }

        // Counted after the drain began (it may already be waiting for zero): give it back.
        Interlocked.Decrement(ref _running);
        return false;
    }

    /// <summary>A transfer <see cref="TryEnter"/> counted has ended.</summary>
    public void Exit() => Interlocked.Decrement(ref _running);

    public async Task StoppingAsync(CancellationToken cancellationToken)
    {
        _draining = true;
        var drain = options.Value.Drain;
        LogDraining(logger, Running, drain.TotalSeconds);
        if (await WaitForNoneAsync(drain, cancellationToken))
        {
            LogDrained(logger);
            return;
        }

        // Kestrel's own stop with an expired token aborts every connection at once; its later stop is a no-op.
        LogCutting(logger, Running, drain.TotalSeconds);
        using (var now = new CancellationTokenSource())
        {
            await now.CancelAsync();
            await server.StopAsync(now.Token);
        }

        if (await WaitForNoneAsync(SaveGrace, cancellationToken))
        {
            LogDrained(logger);
        }
        else
        {
            LogStillRunning(logger, Running);
        }
    }

    public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StartingAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StartedAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StoppedAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    // Polls rather than signals: a stop happens once per process, and the count may touch zero and rise again.
    private async Task<bool> WaitForNoneAsync(TimeSpan limit, CancellationToken cancellationToken)
    {
        var started = time.GetTimestamp();
        while (Running > 0)
        {
            if (time.GetElapsedTime(started) >= limit || cancellationToken.IsCancellationRequested)
            {
                return false;
            }

            await Task.Delay(Poll, time, CancellationToken.None);
        }

        return true;
    }

    [LoggerMessage(EventId = 227, Level = LogLevel.Information, Message = "Stopping: not ready, new transfers refused; waiting up to {DrainSeconds} s for {Running} running transfers (Shutdown:DrainSeconds)")]
    private static partial void LogDraining(ILogger logger, int running, double drainSeconds);

    [LoggerMessage(EventId = 228, Level = LogLevel.Information, Message = "Drained: no transfer is running")]
    private static partial void LogDrained(ILogger logger);

    [LoggerMessage(EventId = 229, Level = LogLevel.Warning, Message = "Cutting {Running} transfers still running after {DrainSeconds} s; their upload sessions keep what arrived")]
    private static partial void LogCutting(ILogger logger, int running, double drainSeconds);

    [LoggerMessage(EventId = 230, Level = LogLevel.Warning, Message = "{Running} cut transfers had not ended when the server stopped")]
    private static partial void LogStillRunning(ILogger logger, int running);
}
