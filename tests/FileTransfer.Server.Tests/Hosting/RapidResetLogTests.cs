using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Diagnostics;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>
/// HTTP/2 rapid reset (streams opened and cancelled at once, CVE-2023-44487) against real Kestrel,
/// with and without a key: the log stays bounded, and the first occurrence of each event is kept.
/// </summary>
public sealed class RapidResetLogTests : IDisposable
{
    private const string KestrelHttp2 = "Microsoft.AspNetCore.Server.Kestrel.Http2";
    private const string GrpcCalls = "Grpc.AspNetCore.Server.ServerCallHandler";
    private static readonly string DownloadPath = $"/{FileService.Descriptor.FullName}/DownloadFile";

    private readonly LogCapture _logs = new();
    private readonly KestrelFactory _server = new();

    public RapidResetLogTests()
    {
        // The product's own levels (appsettings.json), not the quiet test default.
        _server.With("Logging:LogLevel:Default", "Information")
            .With("Logging:LogLevel:Microsoft.AspNetCore", "Warning")
            .WithLogs(_logs);
        _server.Storage.WriteRandom("r/file.bin", 1000);
    }

    [Fact]
    public async Task Rapid_Reset_Without_A_Key_Writes_The_Kestrel_Critical_Entry_Once_With_A_Count_Not_Per_Stream()
    {
        var address = _server.AddressOf(HttpProtocols.Http2);
        var startup = _logs.Entries.Count;

        await Task.WhenAll(
            RapidReset.RunAsync(address, DownloadPath, 3000, apiKey: null, grpc: true),
            RapidReset.RunAsync(address, DownloadPath, 3000, apiKey: null, grpc: true),
            RapidReset.RunAsync(address, "/api/files/r/file.bin", 3000, apiKey: null, grpc: false),
            RapidReset.RunAsync(address, "/api/files/r/file.bin", 3000, apiKey: null, grpc: false));
        var logged = await SettledAsync(startup);

        // Kestrel's defence fired (its first entry is kept), and wrote one entry, not one per stream.
        Assert.Single(logged, e => e.Category == KestrelHttp2 && e.EventId.Id == 60 && e.Level == LogLevel.Critical);
        AssertBounded(logged);

        // The ones left out are counted in one line at the end of the 10 s interval.
        var summary = await SummaryAsync(KestrelHttp2, 60);
        Assert.InRange((long)summary.Fields["Suppressed"]!, 1, 12_000);
    }

    [Fact]
    public async Task Rapid_Reset_With_A_Key_Writes_Each_Grpc_Cancellation_Entry_Once_Not_Two_Stack_Traces_Per_Call()
    {
        var address = _server.AddressOf(HttpProtocols.Http2);
        var startup = _logs.Entries.Count;

        await Task.WhenAll(
            RapidReset.RunAsync(address, DownloadPath, 2000, FileTransferFactory.TestKey, grpc: true),
            RapidReset.RunAsync(address, DownloadPath, 2000, FileTransferFactory.TestKey, grpc: true));
        var logged = await SettledAsync(startup);

        Assert.InRange(logged.Count(e => e.Category == GrpcCalls && e.EventId.Id is 14 or 28), 1, 2);
        AssertBounded(logged);
    }

    /// <summary>
    /// At most one entry with an exception, and one Warning or worse, per event (the first, within
    /// the 10 s interval), each followed by no more than a count; the per-transfer line and the
    /// per-request authentication line are per request by design (and the rate limit bounds those).
    /// </summary>
    private static void AssertBounded(IReadOnlyList<LogCapture.Entry> logged)
    {
        var perEvent = logged.Where(e => e.Exception is not null || e.Level >= LogLevel.Warning)
            .GroupBy(e => (e.Category, e.EventId.Id))
            .ToDictionary(g => g.Key, g => g.Count());
        Assert.All(perEvent, pair => Assert.True(pair.Value <= 1, $"{pair.Key.Category} event {pair.Key.Id}: {pair.Value} entries"));
    }

    private async Task<LogCapture.Entry> SummaryAsync(string category, int eventId)
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (true)
        {
            var summary = _logs.Entries.FirstOrDefault(e => e.Category == "FileTransfer.Server.Diagnostics.RepeatedLogEvents"
                && e.Fields.GetValueOrDefault("Category") as string == category && e.Fields.GetValueOrDefault("EventId") is int id && id == eventId);
            if (summary is not null || DateTime.UtcNow > deadline)
            {
                Assert.NotNull(summary);
                Assert.Equal(LogLevel.Warning, summary.Level);
                return summary;
            }

            await Task.Delay(200, TestTimeout.Token);
        }
    }

    /// <summary>What the server logged after <paramref name="startup"/> entries, once it has stopped logging.</summary>
    /// <remarks>
    /// The attack's connections are gone and the server has acted on every frame (RapidReset waits for
    /// its PING's ACK), but the calls it cancelled may still be unwinding: "no line for half a second"
    /// is the only sign that there are no more, so this one wait is on the clock (bounded).
    /// </remarks>
    private async Task<IReadOnlyList<LogCapture.Entry>> SettledAsync(int startup)
    {
        var count = -1;
        var watch = System.Diagnostics.Stopwatch.StartNew();
        while (count != _logs.Entries.Count)
        {
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(60), $"still logging after 60 s: {_logs.Entries.Count} entries");
            count = _logs.Entries.Count;
            await Task.Delay(500, TestTimeout.Token);
        }

        return [.. _logs.Entries.Skip(startup)];
    }

    public void Dispose() => _server.Dispose();
}
