using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Diagnostics;

/// <summary>The transfer counters at <c>/metrics</c> move by exactly what crossed the wire, and each transfer logs one line.</summary>
public sealed class TransferMetricsTests : IDisposable
{
    private const string Sent = "filetransfer_bytes_sent_bytes_total{protocol=\"rest\"}";
    private const string Received = "filetransfer_bytes_received_bytes_total{protocol=\"rest\"}";
    private const string ActiveDownloads = "filetransfer_transfers_active{direction=\"download\",protocol=\"rest\"}";

    private readonly FileTransferFactory _factory = new FileTransferFactory()
        .With("Logging:LogLevel:FileTransfer.Server.Diagnostics", "Information");

    private readonly LogCapture _logs = new();

    [Fact]
    public async Task Download_Adds_The_File_Size_To_Bytes_Sent_And_Counts_One_Success()
    {
        _factory.Storage.WriteRandom("m/file.bin", 100_000);
        using var client = CreateClient();

        var body = await client.GetByteArrayAsync("/api/files/m/file.bin", TestTimeout.Token);
        var metrics = await SettledMetricsAsync(client);

        Assert.Equal(100_000, body.Length);
        Assert.Equal(100_000, MetricsText.ValueOf(metrics, Sent));
        Assert.Equal(1, MetricsText.ValueOf(metrics, Completed("download", "success")));
        Assert.Equal(0, MetricsText.ValueOf(metrics, ActiveDownloads));
        Assert.Contains("filetransfer_transfers_active{direction=\"download\",protocol=\"rest\"} 0\n", metrics, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Range_Download_Counts_Only_The_Bytes_Of_The_Range()
    {
        _factory.Storage.WriteRandom("m/range.bin", 50_000);
        using var client = CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Get, "/api/files/m/range.bin") { Headers = { Range = new RangeHeaderValue(1000, 1999) } };

        using var response = await client.SendAsync(request, TestTimeout.Token);
        await response.Content.ReadAsByteArrayAsync(TestTimeout.Token);
        var metrics = await SettledMetricsAsync(client);

        Assert.Equal(HttpStatusCode.PartialContent, response.StatusCode);
        Assert.Equal(1000, MetricsText.ValueOf(metrics, Sent));
        Assert.Equal(1, MetricsText.ValueOf(metrics, Completed("download", "success")));
    }

    [Fact]
    public async Task Missing_File_And_Not_Modified_Are_Counted_By_Outcome_And_Head_And_Listing_Are_Not_Transfers()
    {
        _factory.Storage.WriteRandom("m/etag.bin", 10);
        using var client = CreateClient();
        using var head = await client.SendAsync(new HttpRequestMessage(HttpMethod.Head, "/api/files/m/etag.bin"), TestTimeout.Token);
        using var conditional = new HttpRequestMessage(HttpMethod.Get, "/api/files/m/etag.bin");
        conditional.Headers.IfNoneMatch.Add(head.Headers.ETag!);

        using var notModified = await client.SendAsync(conditional, TestTimeout.Token);
        using var missing = await client.GetAsync("/api/files/m/missing.bin", TestTimeout.Token);
        using var listing = await client.GetAsync("/api/files", TestTimeout.Token);
        var metrics = await SettledMetricsAsync(client);

        Assert.Equal(HttpStatusCode.NotModified, notModified.StatusCode);
        Assert.Equal(1, MetricsText.ValueOf(metrics, Completed("download", "not_modified")));
        Assert.Equal(1, MetricsText.ValueOf(metrics, Completed("download", "rejected")));
        Assert.Equal(0, MetricsText.ValueOf(metrics, Completed("download", "success")));
    }

    [Fact]
    public async Task Upload_Adds_The_Body_Size_To_Bytes_Received_And_Counts_One_Success()
    {
        // Needs the upload API (PUT api/files/{name}) from main.
        var bytes = RandomNumberGenerator.GetBytes(70_000);
        using var client = CreateClient();

        using var response = await client.PutAsync("/api/files/m/uploaded.bin", new ByteArrayContent(bytes), TestTimeout.Token);
        var metrics = await SettledMetricsAsync(client);

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        Assert.Equal(70_000, MetricsText.ValueOf(metrics, Received));
        Assert.Equal(1, MetricsText.ValueOf(metrics, Completed("upload", "success")));
    }

    [Fact]
    public async Task Metrics_Are_Public_In_The_Prometheus_Text_Format()
    {
        using var anonymous = _factory.CreateClient();
        anonymous.DefaultRequestHeaders.Authorization = null;

        using var response = await anonymous.GetAsync("/metrics", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var type = response.Content.Headers.ContentType!;
        Assert.Equal("text/plain", type.MediaType);
        Assert.Contains(type.Parameters, p => p.Name == "version" && p.Value == "0.0.4");
        // A series appears with its first measurement: before any transfer there are the runtime's.
        Assert.Contains("# TYPE dotnet_gc_collections_total counter\n", await response.Content.ReadAsStringAsync(TestTimeout.Token), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Each_Transfer_Logs_One_Structured_Line()
    {
        _factory.Storage.WriteRandom("m/logged.bin", 4321);
        using var client = CreateClient();

        await client.GetByteArrayAsync("/api/files/m/logged.bin", TestTimeout.Token);
        await SettledMetricsAsync(client);

        var entry = Assert.Single(_logs.Entries, e => e.EventId.Id == 100);
        Assert.Equal(LogLevel.Information, entry.Level);
        Assert.Equal("download", entry.Fields["Direction"]);
        Assert.Equal("m/logged.bin", entry.Fields["Name"]);
        Assert.Equal("rest", entry.Fields["Protocol"]);
        Assert.Equal(4321L, entry.Fields["Bytes"]);
        Assert.Equal("success", entry.Fields["Outcome"]);
        Assert.Equal("200", entry.Fields["Status"]);
        Assert.IsType<long>(entry.Fields["DurationMs"]);
    }

    [Fact]
    public async Task Download_The_Client_Abandons_Is_Counted_As_Aborted_With_The_Bytes_Actually_Sent()
    {
        using var server = new KestrelFactory();
        server.Storage.WriteRandom("m/huge.bin", 64 * 1024 * 1024);
        using var client = KestrelFactory.ClientFor(server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        using (var response = await client.GetAsync("/api/files/m/huge.bin", HttpCompletionOption.ResponseHeadersRead, TestTimeout.Token))
        {
            await using var body = await response.Content.ReadAsStreamAsync(TestTimeout.Token);
            await body.ReadExactlyAsync(new byte[100_000], TestTimeout.Token);
        }

        client.Dispose();
        using var observer = KestrelFactory.ClientFor(server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        var metrics = await SettledMetricsAsync(observer);

        Assert.Equal(1, MetricsText.ValueOf(metrics, Completed("download", "aborted")));
        Assert.InRange(MetricsText.ValueOf(metrics, Sent), 100_000, 64 * 1024 * 1024 - 1);
        Assert.Equal(0, MetricsText.ValueOf(metrics, ActiveDownloads));
    }

    /// <summary>
    /// /metrics once no transfer is active any more. A client can hold the last byte before the
    /// server's pipeline has returned, and the transfer is counted as completed only then.
    /// </summary>
    private static async Task<string> SettledMetricsAsync(HttpClient client)
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (true)
        {
            var metrics = await client.GetStringAsync("/metrics", TestTimeout.Token);
            var active = metrics.Split('\n').Where(l => l.StartsWith("filetransfer_transfers_active{", StringComparison.Ordinal)).Sum(l => double.Parse(l[(l.LastIndexOf(' ') + 1)..], System.Globalization.CultureInfo.InvariantCulture));
            if (active == 0 || DateTime.UtcNow > deadline)
            {
                return metrics;
            }

            await Task.Delay(20, TestTimeout.Token);
        }
    }

    private static string Completed(string direction, string outcome) =>
        $"filetransfer_transfers_completed_total{{direction=\"{direction}\",outcome=\"{outcome}\",protocol=\"rest\"}}";

    private HttpClient CreateClient() =>
        _factory.WithWebHostBuilder(builder => builder.ConfigureLogging(logging => logging.AddProvider(_logs))).CreateClient();

    public void Dispose() => _factory.Dispose();
}
