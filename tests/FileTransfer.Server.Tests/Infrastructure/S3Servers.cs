namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// The server configured with <c>Storage:Backend=S3</c> on a bucket of the real Ceph RGW, through
/// configuration exactly as an operator sets it. Several factories on one bucket and prefix are
/// replicas of one server.
/// </summary>
public static class S3Servers
{
    /// <summary>The signing key every S3 test server shares (replicas must: the server refuses to start on S3 without one).</summary>
    public const string SigningKey = "s3-replicas-share-this-signing-key-0123456789";

    /// <summary>Points <paramref name="factory"/> at <paramref name="bucket"/> (under <paramref name="prefix"/>).</summary>
    public static T OnS3<T>(this T factory, CephRgw rgw, string bucket, string prefix = "", bool redirect = false)
        where T : FileTransferFactory
    {
        factory
            .With("Storage:Backend", "S3")
            .With("Storage:S3:ServiceUrl", rgw.ServiceUrl.ToString())
            .With("Storage:S3:Bucket", bucket)
            .With("Storage:S3:AccessKey", rgw.AccessKey)
            .With("Storage:S3:SecretKey", rgw.SecretKey)
            .With("Storage:S3:Prefix", prefix)
            .With("Storage:S3:RedirectDownloads", redirect ? "true" : "false")
            .With("Auth:SigningKey", SigningKey);
        return factory;
    }

    /// <inheritdoc cref="OnS3{T}(T, CephRgw, string, string, bool)"/>
    public static T OnS3<T>(this T factory, CephRgwBucket bucket, string prefix = "", bool redirect = false)
        where T : FileTransferFactory =>
        factory.OnS3(bucket.Rgw, bucket.Name, prefix, redirect);

    /// <summary>A prefix no other test of the class uses.</summary>
    public static string NewPrefix() => $"t-{Guid.NewGuid():N}";
}

/// <summary>
/// A class fixture: a bucket of its own on the real RGW, not created beforehand (the server creates
/// it at start), and the server on it, the in-memory test server or real Kestrel. Emptied and deleted afterwards.
/// </summary>
public abstract class S3ServerFixture<TFactory> : IAsyncLifetime
    where TFactory : FileTransferFactory, new()
{
    public CephRgw Rgw { get; private set; } = null!;

    public string Bucket { get; } = CephRgw.NewBucketName();

    public TFactory Server { get; private set; } = null!;

    public Amazon.S3.AmazonS3Client Client { get; private set; } = null!;

    /// <summary>Downloads are redirected to the store (<c>Storage:S3:RedirectDownloads</c>).</summary>
    protected virtual bool Redirect => false;

    public async Task InitializeAsync()
    {
        Rgw = await CephRgw.GetAsync();
        Client = Rgw.CreateClient();
        Server = new TFactory().OnS3(Rgw, Bucket, redirect: Redirect);

        // Big enough for every test here, small enough that 8 MiB parts (the smallest) cut a 9 MiB file in two.
        Server.With("Storage:MaxFileSizeBytes", (64 * 1024 * 1024).ToString(System.Globalization.CultureInfo.InvariantCulture));
        Server.With("RateLimit:Enabled", "false");
        Configure(Server);
    }

    /// <summary>More settings before the host starts.</summary>
    protected virtual void Configure(TFactory server)
    {
    }

    public async Task DisposeAsync()
    {
        Server?.Dispose();
        if (Client is null)
        {
            return;
        }

        using (Client)
        {
            await S3Buckets.DeleteAsync(Client, Bucket);
        }
    }
}

/// <summary>The in-memory test server on its own bucket.</summary>
public sealed class S3TestServer : S3ServerFixture<FileTransferFactory>;

/// <summary>Real Kestrel on its own bucket.</summary>
public sealed class S3KestrelServer : S3ServerFixture<KestrelFactory>;

/// <summary>Real Kestrel on its own bucket, downloads redirected to presigned URLs of the store.</summary>
public sealed class S3RedirectingServer : S3ServerFixture<KestrelFactory>
{
    protected override bool Redirect => true;
}

/// <summary>Emptying and removing a bucket the tests made (or a server made for them).</summary>
public static class S3Buckets
{
    public static async Task DeleteAsync(Amazon.S3.IAmazonS3 client, string bucket)
    {
        try
        {
            var uploads = await client.ListMultipartUploadsAsync(bucket, TestTimeout.Token);
            foreach (var upload in uploads.MultipartUploads ?? [])
            {
                await client.AbortMultipartUploadAsync(bucket, upload.Key, upload.UploadId, TestTimeout.Token);
            }

            foreach (var key in await KeysAsync(client, bucket, ""))
            {
                await client.DeleteObjectAsync(bucket, key, TestTimeout.Token);
            }

            await client.DeleteBucketAsync(bucket, TestTimeout.Token);
        }
        catch (Amazon.S3.AmazonS3Exception ex) when (ex.StatusCode == System.Net.HttpStatusCode.NotFound)
        {
            // Never created: the server did not start.
        }
    }

    public static async Task<List<string>> KeysAsync(Amazon.S3.IAmazonS3 client, string bucket, string prefix)
    {
        var keys = new List<string>();
        var request = new Amazon.S3.Model.ListObjectsV2Request { BucketName = bucket, Prefix = prefix };
        Amazon.S3.Model.ListObjectsV2Response page;
        do
        {
            page = await client.ListObjectsV2Async(request, TestTimeout.Token);
            keys.AddRange(page.S3Objects?.Select(o => o.Key) ?? []);
            request.ContinuationToken = page.NextContinuationToken;
        }
        while (page.IsTruncated == true);

        return keys;
    }

    /// <summary>Multipart uploads in progress (none may be left after a refused or aborted upload).</summary>
    public static async Task<int> UploadsInProgressAsync(Amazon.S3.IAmazonS3 client, string bucket) =>
        (await client.ListMultipartUploadsAsync(bucket, TestTimeout.Token)).MultipartUploads?.Count ?? 0;
}
