using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Diagnostics;
using FileTransfer.Server.Tests.Infrastructure;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>gRPC transfers in the same counters and the same one-line log as REST, labelled protocol="grpc".</summary>
public sealed class GrpcTransferMetricsTests : IDisposable
{
    private const string Sent = "filetransfer_bytes_sent_bytes_total{protocol=\"grpc\"}";
    private const string Received = "filetransfer_bytes_received_bytes_total{protocol=\"grpc\"}";
    private readonly LogCapture _logs = new();
    private readonly KestrelFactory _server = new();

    public GrpcTransferMetricsTests() =>
        _server.With("Logging:LogLevel:FileTransfer.Server.Diagnostics", "Information").WithLogs(_logs);

    [Fact]
    public async Task Download_Counts_The_Chunk_Bytes_And_Logs_One_Line_With_The_Grpc_Status()
    {
        _server.Storage.WriteRandom("g/file.bin", 100_000);

        await GrpcTransfers.DownloadAsync(GrpcClients.For(_server), "g/file.bin", TestTimeout.Token);
        var metrics = await SettledMetricsAsync();

        Assert.Equal(100_000, MetricsText.ValueOf(metrics, Sent));
        Assert.Equal(1, MetricsText.ValueOf(metrics, Completed("download", "success")));
        var entry = Assert.Single(_logs.Entries, e => e.EventId.Id == 100);
        Assert.Equal(LogLevel.Information, entry.Level);
        Assert.Equal("download", entry.Fields["Direction"]);
        Assert.Equal("g/file.bin", entry.Fields["Name"]);
        Assert.Equal("grpc", entry.Fields["Protocol"]);
        Assert.Equal("HTTP/2", entry.Fields["HttpProtocol"]);
        Assert.Equal(100_000L, entry.Fields["Bytes"]);
        Assert.Equal("success", entry.Fields["Outcome"]);
        Assert.Equal("OK", entry.Fields["Status"]);
        Assert.Equal("", entry.Fields["Reason"]);
    }

    [Fact]
    public async Task Upload_Counts_The_Chunk_Bytes_And_The_Name_From_The_Metadata()
    {
        await GrpcTransfers.UploadAsync(GrpcClients.For(_server), "g/up.bin", TestData.RandomBytes(70_000), 16 * 1024, TestTimeout.Token);
        var metrics = await SettledMetricsAsync();

        Assert.Equal(70_000, MetricsText.ValueOf(metrics, Received));
        Assert.Equal(1, MetricsText.ValueOf(metrics, Completed("upload", "success")));
        var entry = Assert.Single(_logs.Entries, e => e.EventId.Id == 100);
        Assert.Equal("g/up.bin", entry.Fields["Name"]);
        Assert.Equal("upload", entry.Fields["Direction"]);
    }

    [Fact]
    public async Task Refused_Calls_Are_Rejected_And_A_Cancelled_Download_Is_Aborted()
    {
        _server.Storage.WriteRandom("g/huge.bin", 64 * 1024 * 1024);
        var client = GrpcClients.For(_server);
        await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.DownloadAsync(client, "g/missing.bin", TestTimeout.Token));
        using (var cancel = new CancellationTokenSource())
        {
            using var call = client.DownloadFile(new DownloadFileRequest { FileName = "g/huge.bin" }, cancellationToken: cancel.Token);
            Assert.True(await call.ResponseStream.MoveNext(TestTimeout.Token));
            Assert.True(await call.ResponseStream.MoveNext(TestTimeout.Token));
            await cancel.CancelAsync();
        }

        var metrics = await SettledMetricsAsync();

        Assert.Equal(1, MetricsText.ValueOf(metrics, Completed("download", "rejected")));
        Assert.Equal(1, MetricsText.ValueOf(metrics, Completed("download", "aborted")));
        Assert.InRange(MetricsText.ValueOf(metrics, Sent), 32 * 1024, (64 * 1024 * 1024) - 1);
    }

    private async Task<string> SettledMetricsAsync()
    {
        using var http = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), System.Net.HttpVersion.Version11);
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (true)
        {
            var metrics = await http.GetStringAsync("/metrics", TestTimeout.Token);
            if (MetricsText.ValueOf(metrics, "filetransfer_transfers_active{direction=\"download\",protocol=\"grpc\"}") == 0
                && MetricsText.ValueOf(metrics, "filetransfer_transfers_active{direction=\"upload\",protocol=\"grpc\"}") == 0
                || DateTime.UtcNow > deadline)
            {
                return metrics;
            }

            await Task.Delay(20, TestTimeout.Token);
        }
    }

    private static string Completed(string direction, string outcome) =>
        $"filetransfer_transfers_completed_total{{direction=\"{direction}\",outcome=\"{outcome}\",protocol=\"grpc\"}}";

    public void Dispose() => _server.Dispose();
}
