using System.Net;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Uploads;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Diagnostics;

/// <summary>
/// Every resumable append is a transfer, counted where the core receives its bytes and tagged with
/// the protocol its adapter names: tus (the web page's uploads), the IETF draft, and gRPC WriteUpload.
/// Each counts its bytes, one completed transfer and one log line.
/// </summary>
public sealed class ResumableTransferMetricsTests : IDisposable
{
    private readonly LogCapture _logs = new();
    private readonly KestrelFactory _server = new();

    public ResumableTransferMetricsTests() =>
        _server.With("Logging:LogLevel:FileTransfer.Server.Diagnostics", "Information").WithLogs(_logs);

    [Fact]
    public async Task A_Tus_Upload_Counts_Each_Append_With_Its_Bytes_And_Logs_A_Line_Each()
    {
        var source = TestData.RandomBytes(300_000);
        using var client = Http();
        var location = await Tus.CreateAsync(client, "m/tus.bin", source.Length);

        using (var first = await Tus.AppendAsync(client, location, source, 0, 100_000))
        using (var last = await Tus.AppendAsync(client, location, source, 100_000, source.Length))
        {
            Assert.Equal(HttpStatusCode.NoContent, first.StatusCode);
            Assert.Equal(HttpStatusCode.NoContent, last.StatusCode);
        }

        var metrics = await SettledMetricsAsync("tus");

        Assert.Equal(300_000, MetricsText.ValueOf(metrics, Received("tus")));
        Assert.Equal(2, MetricsText.ValueOf(metrics, Completed("tus", "success")));
        var lines = Lines("tus");
        Assert.Equal([100_000L, 200_000L], lines.Select(e => (long)e.Fields["Bytes"]!).Order());
        Assert.All(lines, e => Assert.Equal("m/tus.bin", e.Fields["Name"]));
        Assert.All(lines, e => Assert.Equal("204", e.Fields["Status"]));
    }

    [Fact]
    public async Task A_Draft_Upload_Counts_Its_Creation_And_Its_Append()
    {
        var source = TestData.RandomBytes(150_000);
        using var client = Http();
        using var created = await client.SendAsync(Draft.Create("m/draft.bin", source[..50_000], complete: false), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        var location = new Uri(client.BaseAddress!, created.Headers.Location!);

        using var completed = await client.SendAsync(Draft.Append(location, 50_000, source[50_000..], complete: true), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.Created, completed.StatusCode);

        var metrics = await SettledMetricsAsync("draft");

        Assert.Equal(150_000, MetricsText.ValueOf(metrics, Received("draft")));
        Assert.Equal(2, MetricsText.ValueOf(metrics, Completed("draft", "success")));
        Assert.Equal(0, MetricsText.ValueOf(metrics, Received("rest")));
        Assert.Equal(["201", "201"], Lines("draft").Select(e => (string)e.Fields["Status"]!));
    }

    [Fact]
    public async Task A_Grpc_WriteUpload_Counts_Its_Chunks_And_A_Refused_One_Is_Rejected()
    {
        var source = TestData.RandomBytes(200_000);
        var client = GrpcClients.For(_server);
        var started = await client.StartUploadAsync(new StartUploadRequest { FileName = "m/grpc.bin", Length = source.Length }, cancellationToken: TestTimeout.Token);

        var status = await GrpcSessions.WriteAsync(client, started.UploadId, source, 0, source.Length, finish: true);
        Assert.True(status.Complete);
        await Assert.ThrowsAsync<global::Grpc.Core.RpcException>(() => GrpcSessions.WriteAsync(client, "no-such-upload", source, 0, 10, finish: false));

        var metrics = await SettledMetricsAsync("grpc");

        Assert.Equal(200_000, MetricsText.ValueOf(metrics, Received("grpc")));
        Assert.Equal(1, MetricsText.ValueOf(metrics, Completed("grpc", "success")));
        Assert.Equal(1, MetricsText.ValueOf(metrics, Completed("grpc", "rejected")));
        var stored = Assert.Single(Lines("grpc"), e => (string)e.Fields["Outcome"]! == "success");
        Assert.Equal("m/grpc.bin", stored.Fields["Name"]);
        Assert.Equal(200_000L, stored.Fields["Bytes"]);
        Assert.Equal("OK", stored.Fields["Status"]);
    }

    private HttpClient Http() => KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);

    private List<LogCapture.Entry> Lines(string protocol) =>
        [.. _logs.Entries.Where(e => e.EventId.Id == 100 && (string?)e.Fields["Protocol"] == protocol)];

    /// <summary>/metrics once no upload of <paramref name="protocol"/> is active: a transfer completes once its answer has gone out.</summary>
    private async Task<string> SettledMetricsAsync(string protocol)
    {
        using var http = Http();
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (true)
        {
            var metrics = await http.GetStringAsync("/metrics", TestTimeout.Token);
            if (MetricsText.ValueOf(metrics, $"filetransfer_transfers_active{{direction=\"upload\",protocol=\"{protocol}\"}}") == 0 || DateTime.UtcNow > deadline)
            {
                return metrics;
            }

            await Task.Delay(20, TestTimeout.Token);
        }
    }

    private static string Received(string protocol) => $"filetransfer_bytes_received_bytes_total{{protocol=\"{protocol}\"}}";

    private static string Completed(string protocol, string outcome) =>
        $"filetransfer_transfers_completed_total{{direction=\"upload\",outcome=\"{outcome}\",protocol=\"{protocol}\"}}";

    public void Dispose() => _server.Dispose();
}
