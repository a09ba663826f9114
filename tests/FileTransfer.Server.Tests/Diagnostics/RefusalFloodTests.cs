using System.Net;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Diagnostics;

/// <summary>
/// A flood of refused requests (429 from the rate limiter, 401 for want of a key) writes no
/// Information line per request (issue 28: 30 s of h2load wrote 55 MB of log); they are counted in
/// <c>filetransfer_requests_refused_total</c> by reason and protocol instead.
/// </summary>
public sealed class RefusalFloodTests : IDisposable
{
    private readonly LogCapture _logs = new();
    private readonly FileTransferFactory _factory;

    public RefusalFloodTests()
    {
        _factory = new FileTransferFactory()
            .With("Logging:LogLevel:Default", "Information")
            .With("Auth:AllowAnonymousRead", "false")
            .With("RateLimit:PermitsPerSecond", "1")
            .With("RateLimit:Burst", "2")
            .WithLogs(_logs);
    }

    [Fact]
    public async Task Refused_Requests_Cost_No_Information_Line_Each_And_Are_Counted()
    {
        _factory.Storage.Write("flood.txt", [1]);
        using var client = _factory.CreateClient();
        using var anonymous = _factory.CreateClient();
        anonymous.DefaultRequestHeaders.Authorization = null;

        var limited = 0;
        for (var i = 0; i < 40; i++)
        {
            using var response = await client.GetAsync("/api/files/flood.txt", TestTimeout.Token);
            limited += response.StatusCode == HttpStatusCode.TooManyRequests ? 1 : 0;
        }

        // Without a key: 401 (the anonymous client has a bucket of its own too, so 429 past it).
        var unauthenticated = 0;
        for (var i = 0; i < 20; i++)
        {
            using var response = await anonymous.GetAsync("/api/files/flood.txt", TestTimeout.Token);
            Assert.True(response.StatusCode is HttpStatusCode.Unauthorized or HttpStatusCode.TooManyRequests, response.StatusCode.ToString());
            unauthenticated += response.StatusCode == HttpStatusCode.Unauthorized ? 1 : 0;
            limited += response.StatusCode == HttpStatusCode.TooManyRequests ? 1 : 0;
        }

        Assert.InRange(limited, 40, 60);
        Assert.InRange(unauthenticated, 1, 20);
        var perRequest = _logs.Entries.Where(e => e.Level >= LogLevel.Information && e.Category.StartsWith("FileTransfer", StringComparison.Ordinal)).ToList();
        var text = string.Join('\n', perRequest.Select(e => $"{e.Category} {e.EventId.Id}: {e.Message}"));
        Assert.Equal(60 - limited - unauthenticated, perRequest.Count(e => e.EventId.Id == 100));
        Assert.DoesNotContain("(429", text, StringComparison.Ordinal);
        Assert.DoesNotContain("(401", text, StringComparison.Ordinal);
        using var metricsClient = _factory.CreateClient();
        var metrics = await metricsClient.GetStringAsync("/metrics", TestTimeout.Token);
        Assert.Equal(limited, MetricsText.ValueOf(metrics, "filetransfer_requests_refused_total{protocol=\"rest\",reason=\"RATE_LIMITED\"}"));
        Assert.Equal(unauthenticated, MetricsText.ValueOf(metrics, "filetransfer_requests_refused_total{protocol=\"rest\",reason=\"UNAUTHENTICATED\"}"));
    }

    public void Dispose() => _factory.Dispose();
}
