using System.Globalization;

namespace FileTransfer.Benchmarks.E2E.Infrastructure;

/// <summary>
/// The 1-minute load average from /proc/loadavg: read once before anything starts, then every few
/// seconds for the whole run, so that the report says how busy the machine was, not how busy one
/// hoped it was. The harness's own clients and servers raise it too (two busy processes on two
/// cores make about 2): the figure that says whether others shared the machine is the one before.
/// </summary>
internal sealed class LoadMonitor : IAsyncDisposable
{
    private readonly List<double> _samples = [];
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _sampling;

    public LoadMonitor(TimeSpan interval)
    {
        Before = Read();
        _sampling = SampleAsync(interval);
    }

    /// <summary>Load average (1 min) when the harness started.</summary>
    public double Before { get; }

    public static double Read() =>
        File.Exists("/proc/loadavg") ? double.Parse(File.ReadAllText("/proc/loadavg").Split(' ')[0], CultureInfo.InvariantCulture) : double.NaN;

    /// <summary>Every reading taken during the run.</summary>
    public IReadOnlyList<double> During()
    {
        lock (_samples)
        {
            return [.. _samples];
        }
    }

    private async Task SampleAsync(TimeSpan interval)
    {
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                await Task.Delay(interval, _stop.Token);
                lock (_samples)
                {
                    _samples.Add(Read());
                }
            }
        }
        catch (OperationCanceledException)
        {
            // The run is over.
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        await _sampling;
        _stop.Dispose();
    }
}
