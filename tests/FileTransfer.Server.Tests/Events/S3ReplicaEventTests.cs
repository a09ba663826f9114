using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Xunit.Abstractions;

namespace FileTransfer.Server.Tests.Events;

/// <summary>
/// Two replicas on one bucket of the real RGW: each event is delivered to a webhook once, by one of
/// them; a watcher on either sees the events of both, in the same order, each file's in the order of
/// its changes, within the delay docs/events.md states (poll + settle + one store round trip).
/// </summary>
public sealed class S3ReplicaEventTests(ITestOutputHelper output) : IAsyncLifetime
{
    private const int PollMs = 200;
    private const int SettleMs = 800;

    // docs/events.md: PollMilliseconds + SettleMilliseconds + a store round trip; 2 s of the latter on this loaded machine.
    private static readonly TimeSpan Bound = TimeSpan.FromMilliseconds(PollMs + SettleMs + 2000);

    private readonly string _bucket = CephRgw.NewBucketName();
    private CephRgw _rgw = null!;
    private WebhookReceiver _receiver = null!;
    private KestrelFactory _a = null!;
    private KestrelFactory _b = null!;

    public async Task InitializeAsync()
    {
        _rgw = await CephRgw.GetAsync();
        _receiver = await WebhookReceiver.StartAsync();
        _a = Replica("replica-a");
        _b = Replica("replica-b");
        _a.AddressOf(HttpProtocols.Http1);
        _b.AddressOf(HttpProtocols.Http1);
    }

    [Fact]
    public async Task Each_Event_Is_Delivered_Once_And_Watchers_On_Both_See_Both_In_Order_Within_The_Bound()
    {
        using var a = Client(_a);
        using var b = Client(_b);
        var clock = Stopwatch.StartNew();
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(TestTimeout.Token);
        var onA = new ConcurrentQueue<(string Id, string Type, string Name, string Replica, TimeSpan At)>();
        var onB = new ConcurrentQueue<(string Id, string Type, string Name, string Replica, TimeSpan At)>();
        var watchA = WatchAsync(a, onA, clock, stop.Token);
        var watchB = WatchAsync(b, onB, clock, stop.Token);
        await Task.WhenAll(watchA.Started, watchB.Started);

        // Changes of one file alternate between the replicas; each change answered before the next.
        var done = new Dictionary<string, TimeSpan>();
        async Task Change(HttpClient client, HttpMethod method, string name, byte[]? bytes, string key)
        {
            using var request = new HttpRequestMessage(method, "api/files/" + name) { Content = bytes is null ? null : new ByteArrayContent(bytes) };
            (await client.SendAsync(request, TestTimeout.Token)).EnsureSuccessStatusCode();
            done[key] = clock.Elapsed;
        }

        await Change(a, HttpMethod.Put, "r/x.bin", [1], "x1");
        await Change(b, HttpMethod.Put, "r/x.bin", [2], "x2");
        await Change(b, HttpMethod.Put, "r/y.bin", [3], "y1");
        await Change(a, HttpMethod.Put, "r/x.bin", [4], "x3");
        await Change(b, HttpMethod.Delete, "r/x.bin", null, "x4");

        await WebhookDeliveryTests.PollAsync(() => onA.Count >= 5 && onB.Count >= 5);
        var seenA = onA.ToList();
        var seenB = onB.ToList();
        Assert.Equal(seenA.Select(e => e.Id), seenB.Select(e => e.Id));
        Assert.Equal(
            [("file.created", "replica-a"), ("file.replaced", "replica-b"), ("file.replaced", "replica-a"), ("file.deleted", "replica-b")],
            seenA.Where(e => e.Name == "r/x.bin").Select(e => (e.Type, e.Replica)));
        Assert.Equal(seenA.Select(e => e.Id).Order(StringComparer.Ordinal), seenA.Select(e => e.Id));

        // The delay: from the change's answer to its event on each watcher.
        string[] xs = ["x1", "x2", "x3", "x4"];
        var delays = new List<TimeSpan>();
        foreach (var seen in new[] { seenA, seenB })
        {
            var x = 0;
            foreach (var e in seen)
            {
                var key = e.Name == "r/y.bin" ? "y1" : xs[x++];
                delays.Add(e.At - done[key]);
            }
        }

        output.WriteLine($"Delay from answer to event on a watcher: max {delays.Max().TotalMilliseconds:F0} ms, mean {delays.Average(d => d.TotalMilliseconds):F0} ms (bound {Bound.TotalMilliseconds:F0} ms)");
        Assert.All(delays, d => Assert.True(d < Bound, $"{d} > {Bound}"));

        // One delivery per event among the replicas (give a second replica time to deliver twice, if it would).
        await _receiver.WaitForAsync(events => events.Count >= 5);
        await Task.Delay(TimeSpan.FromSeconds(2), TestTimeout.Token);
        var delivered = _receiver.Requests.Where(r => r.Accepted).Select(r => r.Id).ToList();
        Assert.Equal(seenA.Select(e => e.Id).Order(StringComparer.Ordinal), delivered.Order(StringComparer.Ordinal));
        await stop.CancelAsync();
    }

    public async Task DisposeAsync()
    {
        _a?.Dispose();
        _b?.Dispose();
        await _receiver.DisposeAsync();
        using var client = _rgw.CreateClient();
        await S3Buckets.DeleteAsync(client, _bucket);
    }

    private static (Task Started, Task Reading) WatchAsync(HttpClient client, ConcurrentQueue<(string, string, string, string, TimeSpan)> seen, Stopwatch clock, CancellationToken cancellationToken)
    {
        var started = new TaskCompletionSource();
        var reading = Task.Run(async () =>
        {
            using var response = await client.GetAsync("api/events?prefix=r/", HttpCompletionOption.ResponseHeadersRead, cancellationToken);
            response.EnsureSuccessStatusCode();
            started.SetResult();
            using var reader = new StreamReader(await response.Content.ReadAsStreamAsync(cancellationToken));
            while (await reader.ReadLineAsync(cancellationToken) is { } line)
            {
                if (line.StartsWith("data: ", StringComparison.Ordinal))
                {
                    var e = JsonDocument.Parse(line[6..]).RootElement;
                    seen.Enqueue((e.GetProperty("id").GetString()!, e.GetProperty("type").GetString()!, e.GetProperty("name").GetString()!, e.GetProperty("replica").GetString()!, clock.Elapsed));
                }
            }
        }, cancellationToken);
        return (started.Task, reading);
    }

    private KestrelFactory Replica(string name)
    {
        var replica = new KestrelFactory().OnS3(_rgw, _bucket).WithWebhook(_receiver);
        replica.With("Events:Replica", name)
            .With("Events:PollMilliseconds", PollMs.ToString(System.Globalization.CultureInfo.InvariantCulture))
            .With("Events:SettleMilliseconds", SettleMs.ToString(System.Globalization.CultureInfo.InvariantCulture))
            .With("RateLimit:Enabled", "false");
        return replica;
    }

    private static HttpClient Client(KestrelFactory replica) => KestrelFactory.ClientFor(replica.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
}
