using FileTransfer.Server.Tests.Diagnostics;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Storage.S3;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Storage.S3.Outage;

/// <summary>
/// A class fixture: real Kestrel on S3 whose every store request goes through a <see cref="GatewayProxy"/>
/// of its own in front of the shared RGW, so that its tests kill, freeze and bring back "the gateway"
/// without any other test noticing; its own bucket; short deadlines (a store call 2 s, the health
/// check 1 s, a lease 3 s) so that an outage is answered in seconds; and the transfer log captured.
/// </summary>
public sealed class OutageServer : IAsyncLifetime
{
    /// <summary>Parts of 8 MiB (the smallest, for a 64 MiB limit): a file of 9 MiB or more is a multipart upload.</summary>
    public const int Part = 8 * 1024 * 1024;

    public const int TimeoutSeconds = 2;

    public static readonly TimeSpan LeaseDuration = TimeSpan.FromSeconds(3);

    public CephRgw Rgw { get; private set; } = null!;

    public GatewayProxy Gateway { get; private set; } = null!;

    public string Bucket { get; } = CephRgw.NewBucketName();

    public KestrelFactory Server { get; private set; } = null!;

    public Amazon.S3.AmazonS3Client Client { get; private set; } = null!;

    public LogCapture Logs { get; } = new();

    public Uri Http1 => Server.AddressOf(HttpProtocols.Http1);

    public async Task InitializeAsync()
    {
        Rgw = await CephRgw.GetAsync();
        Client = Rgw.CreateClient();
        Gateway = new GatewayProxy(Rgw.ServiceUrl);
        Server = Replica(Gateway.Address);
        Server.AddressOf(HttpProtocols.Http1);
    }

    /// <summary>A server on this fixture's bucket that reaches the store at <paramref name="gateway"/> (another replica, behind a gateway of its own).</summary>
    public KestrelFactory Replica(Uri gateway)
    {
        var server = new KestrelFactory();
        server.OnS3(Rgw, Bucket);
        server.With("Storage:S3:ServiceUrl", gateway.ToString())
            .With("Storage:S3:TimeoutSeconds", TimeoutSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture))
            .With("Health:StorageTimeoutSeconds", "1")
            .With("Storage:MaxFileSizeBytes", (64 * 1024 * 1024).ToString(System.Globalization.CultureInfo.InvariantCulture))
            .With("RateLimit:Enabled", "false")
            .With("Logging:LogLevel:FileTransfer.Server.Diagnostics", "Information")
            .WithLogs(Logs)
            .WithServices(services => services.PostConfigure<S3StorageOptions>(options => options.LeaseDuration = LeaseDuration));
        return server;
    }

    /// <summary>
    /// The transfer log's status field of the last line for <paramref name="name"/>, once it reads
    /// <paramref name="expected"/> or 5 s have passed: the line is written when the transfer has ended,
    /// which may be just after the client got its answer.
    /// </summary>
    public async Task<string?> LoggedStatusAsync(string name, string expected)
    {
        var started = System.Diagnostics.Stopwatch.StartNew();
        var status = LoggedStatus(name);
        while (status != expected && started.Elapsed < TimeSpan.FromSeconds(5))
        {
            await Task.Delay(20, TestTimeout.Token);
            status = LoggedStatus(name);
        }

        return status;
    }

    private string? LoggedStatus(string name) =>
        Logs.Entries.LastOrDefault(e => e.EventId.Id == Core.TransferLog.CompletedEventId && Equals(e.Fields.GetValueOrDefault("Name"), name))?.Fields["Status"]?.ToString();

    /// <summary>Polls <paramref name="condition"/> every 50 ms until it holds; fails after <paramref name="limit"/>.</summary>
    public static async Task UntilAsync(Func<Task<bool>> condition, TimeSpan limit, string what)
    {
        var started = System.Diagnostics.Stopwatch.StartNew();
        while (!await condition())
        {
            Assert.True(started.Elapsed < limit, $"Not within {limit.TotalSeconds} s: {what}");
            await Task.Delay(50, TestTimeout.Token);
        }
    }

    /// <summary>Waits until a part of a multipart upload of <paramref name="key"/> is in the store (the upload is under way there).</summary>
    public Task UntilAPartIsStoredAsync(string key) => UntilAsync(
        async () =>
        {
            var uploads = await Client.ListMultipartUploadsAsync(new Amazon.S3.Model.ListMultipartUploadsRequest { BucketName = Bucket, Prefix = key }, TestTimeout.Token);
            foreach (var upload in uploads.MultipartUploads ?? [])
            {
                var parts = await Client.ListPartsAsync(new Amazon.S3.Model.ListPartsRequest { BucketName = Bucket, Key = upload.Key, UploadId = upload.UploadId }, TestTimeout.Token);
                if (parts.Parts is { Count: > 0 })
                {
                    return true;
                }
            }

            return false;
        },
        TimeSpan.FromSeconds(60),
        $"a part of {key} in the store");

    /// <summary>Multipart uploads of <paramref name="key"/> in the store.</summary>
    public async Task<int> UploadsOfAsync(string key) =>
        (await Client.ListMultipartUploadsAsync(new Amazon.S3.Model.ListMultipartUploadsRequest { BucketName = Bucket, Prefix = key }, TestTimeout.Token)).MultipartUploads?.Count(u => u.Key == key) ?? 0;

    public async Task DisposeAsync()
    {
        Server?.Dispose();
        if (Gateway is not null)
        {
            await Gateway.DisposeAsync();
        }

        if (Client is not null)
        {
            using (Client)
            {
                await S3Buckets.DeleteAsync(Client, Bucket);
            }
        }
    }
}
