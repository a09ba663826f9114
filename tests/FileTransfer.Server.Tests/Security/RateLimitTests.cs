using System.Net;
using FileTransfer.Server.Tests.Diagnostics;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Security;

/// <summary>Per-client request rate and concurrency limits: 429 problem with Retry-After.</summary>
public sealed class RateLimitTests
{
    [Fact]
    public async Task Requests_Past_The_Burst_Are_429_Problem_With_Retry_After()
    {
        using var factory = new SecurityFactory();
        factory.With("RateLimit:PermitsPerSecond", "1").With("RateLimit:Burst", "2");
        using var warmUp = factory.ClientWith(FileTransferFactory.TestKey);
        await warmUp.GetAsync("/api/files", TestTimeout.Token);
        using var client = factory.ClientWith(SecurityFactory.ReadKey);

        var statuses = new List<HttpStatusCode>();
        HttpResponseMessage response;
        do
        {
            response = await client.GetAsync("/api/files", TestTimeout.Token);
            statuses.Add(response.StatusCode);
        }
        while (response.StatusCode == HttpStatusCode.OK && statuses.Count < 10);

        // Two from the burst; a third only if the bucket's one-second refill fell in between.
        Assert.InRange(statuses.Count, 3, 4);
        await Problems.AssertAsync(response, HttpStatusCode.TooManyRequests);
        Assert.InRange(response.Headers.RetryAfter?.Delta?.TotalSeconds ?? 0, 1, 2);
    }

    [Fact]
    public async Task The_Rate_Limiting_Series_Count_Leases_And_Refusals_As_The_Framework_Named_Them()
    {
        using var factory = new SecurityFactory();
        factory.With("RateLimit:PermitsPerSecond", "1").With("RateLimit:Burst", "2");
        using var client = factory.ClientWith(SecurityFactory.ReadKey);
        var acquired = 0;
        HttpResponseMessage response;
        while ((response = await client.GetAsync("/api/files", TestTimeout.Token)).StatusCode == HttpStatusCode.OK)
        {
            acquired++;
        }

        Assert.Equal(HttpStatusCode.TooManyRequests, response.StatusCode);
        var metrics = await client.GetStringAsync("/metrics", TestTimeout.Token);

        // Every request that passed holds a lease, the scrape too (unlimited, but counted as before).
        Assert.Equal(1, MetricsText.ValueOf(metrics, "aspnetcore_rate_limiting_requests_total{aspnetcore_rate_limiting_result=\"global_limiter\"}"));
        // A lease is counted as its request leaves, which may be just after its client read the answer.
        Assert.InRange(MetricsText.ValueOf(metrics, "aspnetcore_rate_limiting_requests_total{aspnetcore_rate_limiting_result=\"acquired\"}"), acquired - 1, acquired);
        Assert.InRange(MetricsText.ValueOf(metrics, "aspnetcore_rate_limiting_active_request_leases{}"), 1, 2);

        // The framework's buckets for this histogram (its short-seconds advice), not OpenTelemetry's defaults.
        Assert.Contains("aspnetcore_rate_limiting_request_lease_duration_seconds_bucket{le=\"0.005\"}", metrics, StringComparison.Ordinal);
        Assert.DoesNotContain("aspnetcore_rate_limiting_request_lease_duration_seconds_bucket{le=\"300\"}", metrics, StringComparison.Ordinal);
        Assert.DoesNotContain("aspnetcore_rate_limiting_queued_requests", metrics, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Each_Key_And_Each_Address_Has_Its_Own_Slots_And_Health_Is_Never_Limited()
    {
        using var server = new KestrelFactory();
        server.With("RateLimit:ConcurrentTransfers", "1").With("Auth:AllowAnonymousRead", "true")
            .With("Auth:ApiKeys:1:Key", SecurityFactory.ReadKey).With("Auth:ApiKeys:1:Scopes:0", "read")
            .Storage.WriteRandom("big.bin", 32 * 1024 * 1024);
        var address = server.AddressOf(HttpProtocols.Http1);
        using var keyed = KestrelFactory.ClientFor(address, HttpVersion.Version11);
        using var otherKey = KestrelFactory.ClientFor(address, HttpVersion.Version11);
        otherKey.DefaultRequestHeaders.Authorization = new("Bearer", SecurityFactory.ReadKey);
        using var anonymous = KestrelFactory.ClientFor(address, HttpVersion.Version11);
        anonymous.DefaultRequestHeaders.Authorization = null;

        // Each client holds its one slot with a download whose body it does not read.
        using var keyedTransfer = await keyed.GetAsync("/api/files/big.bin", HttpCompletionOption.ResponseHeadersRead, TestTimeout.Token);
        using var anonymousTransfer = await anonymous.GetAsync("/api/files/big.bin", HttpCompletionOption.ResponseHeadersRead, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, keyedTransfer.StatusCode);
        Assert.Equal(HttpStatusCode.OK, anonymousTransfer.StatusCode);
        await Problems.AssertAsync(await keyed.GetAsync("/api/files", TestTimeout.Token), HttpStatusCode.TooManyRequests);
        await Problems.AssertAsync(await anonymous.GetAsync("/api/files", TestTimeout.Token), HttpStatusCode.TooManyRequests);
        Assert.Equal(HttpStatusCode.OK, (await otherKey.GetAsync("/api/files", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await keyed.GetAsync("/healthz", TestTimeout.Token)).StatusCode);
    }

    [Fact]
    public async Task Disabled_Limits_Let_Every_Request_Through()
    {
        using var factory = new SecurityFactory();
        factory.With("RateLimit:Enabled", "false").With("RateLimit:PermitsPerSecond", "1").With("RateLimit:Burst", "1");
        using var client = factory.ClientWith(SecurityFactory.ReadKey);

        for (var i = 0; i < 20; i++)
        {
            Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/api/files", TestTimeout.Token)).StatusCode);
        }
    }

    [Fact]
    public async Task A_Running_Transfer_Holds_A_Slot_Until_It_Ends()
    {
        using var server = new KestrelFactory();
        server.With("RateLimit:ConcurrentTransfers", "1").Storage.WriteRandom("big.bin", 32 * 1024 * 1024);
        using var client = KestrelFactory.ClientFor(server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);

        var running = await client.GetAsync("/api/files/big.bin", HttpCompletionOption.ResponseHeadersRead, TestTimeout.Token);
        using var second = await client.GetAsync("/api/files", TestTimeout.Token);
        await Problems.AssertAsync(second, HttpStatusCode.TooManyRequests);
        Assert.Equal("1", second.Headers.GetValues("Retry-After").Single());

        running.Dispose();
        var status = HttpStatusCode.TooManyRequests;
        for (var attempt = 0; attempt < 50 && status == HttpStatusCode.TooManyRequests; attempt++)
        {
            await Task.Delay(100, TestTimeout.Token);
            using var retry = await client.GetAsync("/api/files", TestTimeout.Token);
            status = retry.StatusCode;
        }

        Assert.Equal(HttpStatusCode.OK, status);
    }

    [Fact]
    public async Task With_One_Slot_Requests_One_After_Another_All_Succeed()
    {
        using var factory = new SecurityFactory();
        factory.With("RateLimit:ConcurrentTransfers", "1");
        using var client = factory.ClientWith(SecurityFactory.ReadKey);

        for (var i = 0; i < 20; i++)
        {
            Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/api/files", TestTimeout.Token)).StatusCode);
        }
    }

    [Fact]
    public async Task After_The_Retry_After_Wait_The_Bucket_Has_Refilled()
    {
        using var factory = new SecurityFactory();
        factory.With("RateLimit:PermitsPerSecond", "1").With("RateLimit:Burst", "2");
        using var client = factory.ClientWith(SecurityFactory.ReadKey);

        HttpResponseMessage response;
        var sent = 0;
        do
        {
            response = await client.GetAsync("/api/files", TestTimeout.Token);
            sent++;
        }
        while (response.StatusCode == HttpStatusCode.OK && sent < 10);

        await Problems.AssertAsync(response, HttpStatusCode.TooManyRequests);
        var wait = response.Headers.RetryAfter!.Delta!.Value;
        Assert.Equal(TimeSpan.FromSeconds(1), wait);
        await Task.Delay(wait, TestTimeout.Token);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/api/files", TestTimeout.Token)).StatusCode);
    }
}
