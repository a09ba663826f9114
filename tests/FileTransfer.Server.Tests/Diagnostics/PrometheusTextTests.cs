using System.Diagnostics.Metrics;
using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Diagnostics;

/// <summary>The exposition format: HELP and TYPE lines, suffixes, label escaping, isolation per meter factory.</summary>
public sealed class PrometheusTextTests : IDisposable
{
    private readonly ServiceProvider _services = new ServiceCollection().AddMetrics().BuildServiceProvider();

    [Fact]
    public void Counters_And_Gauges_Are_Written_With_Help_Type_And_Escaped_Labels()
    {
        var factory = _services.GetRequiredService<IMeterFactory>();
        using var listener = new MetricsListener(factory);
        var meter = factory.Create(TransferMetrics.MeterName);
        var counter = meter.CreateCounter<long>("test.moved", "By", "Bytes moved\nby \\ test.");
        var gauge = meter.CreateUpDownCounter<long>("test.open", description: "Open things.");

        counter.Add(5, new KeyValuePair<string, object?>("who", "a \"quoted\" \\ back\nslash"));
        counter.Add(7, new KeyValuePair<string, object?>("who", "a \"quoted\" \\ back\nslash"));
        counter.Add(1, new KeyValuePair<string, object?>("who", "plain"));
        gauge.Add(3);
        gauge.Add(-1);

        var text = PrometheusText.Write(listener.Snapshot());

        Assert.Equal(
            "# HELP test_moved_total Bytes moved\\nby \\\\ test.\n" +
            "# TYPE test_moved_total counter\n" +
            "test_moved_total{who=\"a \\\"quoted\\\" \\\\ back\\nslash\"} 12\n" +
            "test_moved_total{who=\"plain\"} 1\n" +
            "# HELP test_open Open things.\n" +
            "# TYPE test_open gauge\n" +
            "test_open 2\n",
            text);
    }

    [Fact]
    public void Only_The_Hosts_Own_Meter_Is_Observed()
    {
        using var other = new ServiceCollection().AddMetrics().BuildServiceProvider();
        using var listener = new MetricsListener(_services.GetRequiredService<IMeterFactory>());
        var foreign = other.GetRequiredService<IMeterFactory>().Create(TransferMetrics.MeterName);

        foreign.CreateCounter<long>("test.foreign").Add(1);

        Assert.Empty(listener.Snapshot());
    }

    public void Dispose() => _services.Dispose();
}
