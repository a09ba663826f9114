using System.Diagnostics;
using System.Net;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Diagnostics;

/// <summary>
/// <c>/metrics</c> on real Kestrel after REST and gRPC traffic: the standard ASP.NET Core, Kestrel
/// and runtime meters, ours, and gRPC calls by their gRPC status; the whole exposition passes
/// Prometheus' own linter.
/// </summary>
public sealed class PrometheusExpositionTests : IDisposable
{
    private const string RpcDuration = "rpc_server_call_duration_seconds";
    private readonly KestrelFactory _server = new();

    [Fact]
    public async Task Metrics_After_Rest_And_Grpc_Traffic_Pass_Promtool_Check_Metrics()
    {
        var metrics = await MetricsAfterTrafficAsync();

        var (exitCode, output) = await PromtoolCheckAsync(metrics);

        Assert.True(exitCode == 0, $"promtool check metrics exited {exitCode}:\n{output}");
        Assert.Equal(string.Empty, output.Trim());
    }

    [Fact]
    public async Task Metrics_Carry_The_Aspnetcore_Kestrel_Runtime_And_Transfer_Meters()
    {
        var metrics = await MetricsAfterTrafficAsync();

        Assert.Contains("# TYPE http_server_request_duration_seconds histogram", metrics, StringComparison.Ordinal);
        Assert.Contains("# TYPE http_server_active_requests gauge", metrics, StringComparison.Ordinal);
        Assert.Contains("# TYPE kestrel_active_connections gauge", metrics, StringComparison.Ordinal);
        Assert.Contains("# TYPE dotnet_gc_collections_total counter", metrics, StringComparison.Ordinal);
        Assert.Contains("# TYPE dotnet_thread_pool_thread_count", metrics, StringComparison.Ordinal);
        Assert.Equal(1000, MetricsText.ValueOf(metrics, "filetransfer_bytes_sent_bytes_total{protocol=\"rest\"}"));
        Assert.Equal(1000, MetricsText.ValueOf(metrics, "filetransfer_bytes_sent_bytes_total{protocol=\"grpc\"}"));
        Assert.Equal(1, MetricsText.ValueOf(metrics, HttpRequests("GET", "200", "api/files/{**path}")));
    }

    [Fact]
    public async Task Grpc_Calls_Are_Counted_By_Their_Grpc_Status_Not_As_Http_200()
    {
        var metrics = await MetricsAfterTrafficAsync();

        Assert.Equal(1, MetricsText.ValueOf(metrics, RpcCalls("DownloadFile", StatusCode.OK)));
        Assert.Equal(1, MetricsText.ValueOf(metrics, RpcCalls("DownloadFile", StatusCode.NotFound)));
        Assert.Equal(1, MetricsText.ValueOf(metrics, RpcCalls("GetFileInfo", StatusCode.Unauthenticated)));
        Assert.Equal(3, MetricsText.Lines(metrics, RpcDuration + "_count").Sum(l => MetricsText.ValueOf(metrics, l[..l.LastIndexOf(' ')])));
        Assert.Contains("# TYPE rpc_server_call_duration_seconds histogram", metrics, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Two_Hosts_In_One_Process_Keep_Their_Own_Numbers()
    {
        await MetricsAfterTrafficAsync();
        using var other = new KestrelFactory();
        using var client = KestrelFactory.ClientFor(other.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);

        var metrics = await client.GetStringAsync("/metrics", TestTimeout.Token);

        Assert.Equal(0, MetricsText.ValueOf(metrics, "filetransfer_bytes_sent_bytes_total{protocol=\"rest\"}"));
        Assert.Empty(MetricsText.Lines(metrics, RpcDuration + "_count"));
        Assert.Equal(0, MetricsText.ValueOf(metrics, HttpRequests("GET", "200", "api/files/{**path}")));
        Assert.Contains("# TYPE dotnet_gc_collections_total counter", metrics, StringComparison.Ordinal);
    }

    /// <summary>A REST download, a gRPC download, a gRPC call for a missing file and one without a key; then /metrics.</summary>
    private async Task<string> MetricsAfterTrafficAsync()
    {
        _server.Storage.WriteRandom("m/file.bin", 1000);
        using var http = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        Assert.Equal(1000, (await http.GetByteArrayAsync("/api/files/m/file.bin", TestTimeout.Token)).Length);
        var grpc = GrpcClients.For(_server);
        await GrpcTransfers.DownloadAsync(grpc, "m/file.bin", TestTimeout.Token);
        var missing = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.DownloadAsync(grpc, "m/missing.bin", TestTimeout.Token));
        Assert.Equal(StatusCode.NotFound, missing.StatusCode);
        var anonymous = GrpcClients.For(_server, apiKey: null);
        var refused = await Assert.ThrowsAsync<RpcException>(async () => await anonymous.GetFileInfoAsync(new GetFileInfoRequest { FileName = "m/file.bin" }, cancellationToken: TestTimeout.Token));
        Assert.Equal(StatusCode.Unauthenticated, refused.StatusCode);

        // Transfers are counted once the server's pipeline has returned, which may be after the client has its last byte.
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (true)
        {
            var metrics = await http.GetStringAsync("/metrics", TestTimeout.Token);
            if (MetricsText.ValueOf(metrics, "filetransfer_transfers_completed_total{direction=\"download\",outcome=\"rejected\",protocol=\"grpc\"}") == 1
                && MetricsText.Lines(metrics, RpcDuration + "_count").Count() == 3
                || DateTime.UtcNow > deadline)
            {
                return metrics;
            }

            await Task.Delay(20, TestTimeout.Token);
        }
    }

    private static async Task<(int ExitCode, string Output)> PromtoolCheckAsync(string metrics)
    {
        var start = new ProcessStartInfo("promtool", ["check", "metrics"])
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync(TestTimeout.Token);
        var error = process.StandardError.ReadToEndAsync(TestTimeout.Token);
        await process.StandardInput.WriteAsync(metrics);
        process.StandardInput.Close();
        await process.WaitForExitAsync(TestTimeout.Token);
        return (process.ExitCode, await output + await error);
    }

    private static string RpcCalls(string method, StatusCode status) =>
        $"{RpcDuration}_count{{rpc_grpc_status_code=\"{(int)status}\",rpc_method=\"{method}\",rpc_service=\"filetransfer.v1.FileService\",rpc_system=\"grpc\"}}";

    private static string HttpRequests(string method, string status, string route) =>
        $"http_server_request_duration_seconds_count{{http_request_method=\"{method}\",http_response_status_code=\"{status}\",http_route=\"{route}\",network_protocol_version=\"1.1\",url_scheme=\"http\"}}";

    public void Dispose() => _server.Dispose();
}
