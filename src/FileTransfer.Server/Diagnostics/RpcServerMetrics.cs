using System.Diagnostics;
using System.Diagnostics.Metrics;
using FileTransfer.Core;
using Grpc.Core;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// <c>rpc.server.call.duration</c> (OpenTelemetry RPC semantic conventions) for every gRPC call,
/// tagged <c>rpc.system</c>, <c>rpc.service</c>, <c>rpc.method</c> and <c>rpc.grpc.status_code</c>.
/// ASP.NET Core's <c>http.server.request.duration</c> cannot tell: a gRPC call that fails is an
/// HTTP 200 whose status travels in a trailer.
/// </summary>
internal sealed class RpcServerMetrics
{
    public const string DurationName = "rpc.server.call.duration";

    // The semantic conventions' HTTP and RPC boundaries, and three more for transfers that take minutes.
    private static readonly double[] Buckets = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60, 300];

    private readonly Histogram<double> _duration;

    public RpcServerMetrics(IMeterFactory meterFactory)
    {
        var meter = meterFactory.Create(TransferMetrics.MeterName);
        _duration = meter.CreateHistogram(
            DurationName,
            unit: "s",
            description: "Duration of gRPC calls on the server, by method and final gRPC status.",
            tags: null,
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = Buckets });
    }

    public void Record(TimeSpan elapsed, IMethod method, StatusCode status)
    {
        var tags = new TagList
        {
            { "rpc.system", "grpc" },
            { "rpc.service", method.ServiceName },
            { "rpc.method", method.Name },
            { "rpc.grpc.status_code", (int)status },
        };
        _duration.Record(elapsed.TotalSeconds, tags);
    }
}
