using Amazon.S3;
using Amazon.S3.Model;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Storage.S3;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core.Tests.Infrastructure;

/// <summary>
/// A bucket on the real Ceph RGW (<see cref="CephRgw"/>) for one test class, and S3 backends over it
/// built as the registration builds them, without a host: each under its own prefix, or several over
/// one prefix as replicas of one server. Emptied and deleted afterwards: the OSD keeps objects in memory.
/// </summary>
public sealed class S3TestBucket : IAsyncLifetime
{
    private readonly List<BucketClient> _buckets = [];

    public CephRgw Rgw { get; private set; } = null!;

    public AmazonS3Client Client { get; private set; } = null!;

    public string Name { get; } = CephRgw.NewBucketName();

    public async Task InitializeAsync()
    {
        Rgw = await CephRgw.GetAsync();
        Client = Rgw.CreateClient();
        await Client.PutBucketAsync(Name, TestTimeout.Token);
    }

    /// <summary>A fresh prefix no other backend of this bucket uses.</summary>
    public static string NewPrefix() => $"t-{Guid.NewGuid():N}/";

    /// <summary>A backend (one replica) over <paramref name="prefix"/>; <paramref name="configure"/> adjusts its settings.</summary>
    internal S3StorageBackend Backend(string prefix, Action<S3StorageOptions>? configure = null, long maxFileSizeBytes = 100L * 1024 * 1024 * 1024) =>
        Replica(prefix, configure, maxFileSizeBytes).Backend;

    /// <summary>
    /// A backend and its upload-session store over <paramref name="prefix"/>, as one replica's
    /// registration builds them, on <paramref name="time"/> (leases expire by it; default the system clock).
    /// </summary>
    internal (S3StorageBackend Backend, S3UploadSessionStore Sessions) Replica(string prefix, Action<S3StorageOptions>? configure = null, long maxFileSizeBytes = 100L * 1024 * 1024 * 1024, TimeProvider? time = null)
    {
        time ??= TimeProvider.System;
        var settings = new S3StorageOptions
        {
            ServiceUrl = Rgw.ServiceUrl.ToString(),
            Bucket = Name,
            AccessKey = Rgw.AccessKey,
            SecretKey = Rgw.SecretKey,
            Prefix = prefix,
        };
        configure?.Invoke(settings);
        var options = Options.Create(settings);
        var bucket = new BucketClient(options);
        lock (_buckets)
        {
            _buckets.Add(bucket);
        }

        var leases = new NameLeases(bucket, options, time, NullLogger<NameLeases>.Instance);
        var storage = Options.Create(new StorageOptions { MaxFileSizeBytes = maxFileSizeBytes });
        var backend = new S3StorageBackend(
            bucket,
            leases,
            new S3Digests(bucket, NullLogger<S3Digests>.Instance),
            options,
            storage,
            time,
            NullLogger<S3StorageBackend>.Instance);
        return (backend, new S3UploadSessionStore(bucket, leases, backend, storage, NullLogger<S3UploadSessionStore>.Instance));
    }

    /// <summary>Every key under <paramref name="prefix"/>, in the store's order.</summary>
    public async Task<List<string>> KeysAsync(string prefix)
    {
        var keys = new List<string>();
        var request = new ListObjectsV2Request { BucketName = Name, Prefix = prefix };
        ListObjectsV2Response page;
        do
        {
            page = await Client.ListObjectsV2Async(request, TestTimeout.Token);
            keys.AddRange(page.S3Objects?.Select(o => o.Key) ?? []);
            request.ContinuationToken = page.NextContinuationToken;
        }
        while (page.IsTruncated == true);

        return keys;
    }

    /// <summary>The multipart uploads in progress under <paramref name="prefix"/>.</summary>
    public async Task<List<MultipartUpload>> UploadsAsync(string prefix) =>
        [.. (await Client.ListMultipartUploadsAsync(new ListMultipartUploadsRequest { BucketName = Name, Prefix = prefix }, TestTimeout.Token)).MultipartUploads ?? []];

    /// <summary>Puts an object the way another program would (no metadata, no rules).</summary>
    public Task PutAsync(string key, byte[] bytes) =>
        Client.PutObjectAsync(new PutObjectRequest { BucketName = Name, Key = key, InputStream = new MemoryStream(bytes) }, TestTimeout.Token);

    /// <summary>Removes every object and upload under <paramref name="prefix"/>.</summary>
    public async Task EmptyAsync(string prefix)
    {
        foreach (var upload in await UploadsAsync(prefix))
        {
            await Client.AbortMultipartUploadAsync(Name, upload.Key, upload.UploadId, TestTimeout.Token);
        }

        foreach (var key in await KeysAsync(prefix))
        {
            await Client.DeleteObjectAsync(Name, key, TestTimeout.Token);
        }
    }

    public async Task DisposeAsync()
    {
        if (Client is null)
        {
            return;
        }

        using (Client)
        {
            await EmptyAsync("");
            await Client.DeleteBucketAsync(Name, TestTimeout.Token);
        }

        foreach (var bucket in _buckets)
        {
            bucket.Dispose();
        }
    }
}
