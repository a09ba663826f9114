namespace FileTransfer.Storage.S3;

/// <summary>
/// Settings of the object-store backend, bound from <c>Storage:S3</c> when <c>Storage:Backend</c> is
/// <c>S3</c>. Checked at start by <see cref="S3StorageOptionsValidator"/>: every message names the
/// key that is wrong and never shows a value.
/// </summary>
public sealed class S3StorageOptions
{
    public const string SectionName = "Storage:S3";

    /// <summary>The store's S3 endpoint as this server reaches it, e.g. <c>http://127.0.0.1:7480</c> (path-style addressing).</summary>
    public string? ServiceUrl { get; set; }

    /// <summary>The bucket that holds the files; created at start when it does not exist.</summary>
    public string? Bucket { get; set; }

    /// <summary>The S3 access key id.</summary>
    public string? AccessKey { get; set; }

    /// <summary>The S3 secret key. Never logged; pass it through the environment or a secret store.</summary>
    public string? SecretKey { get; set; }

    /// <summary>The region requests are signed for (Ceph RGW accepts any; AWS needs the bucket's).</summary>
    public string Region { get; set; } = "us-east-1";

    /// <summary>
    /// Optional key prefix, so that several deployments (or other data) share a bucket: file <c>a/b.txt</c>
    /// is the object <c>PREFIX/a/b.txt</c>. A missing trailing '/' is added.
    /// </summary>
    public string Prefix { get; set; } = "";

    /// <summary>
    /// Answer REST downloads with <c>307</c> to a presigned URL of the store (and let gRPC clients ask
    /// for one, <c>GetDownloadUrl</c>), so that the bytes do not pass through this server.
    /// </summary>
    public bool RedirectDownloads { get; set; }

    /// <summary>How long a presigned download URL stays valid: 1 second to 7 days (longer would fall back to SigV2).</summary>
    public int RedirectSeconds { get; set; } = 300;

    /// <summary>
    /// The store's endpoint as clients reach it, for presigned URLs, when it differs from
    /// <see cref="ServiceUrl"/> (a container network name behind a published port). Default: <see cref="ServiceUrl"/>.
    /// </summary>
    public string? PublicServiceUrl { get; set; }

    /// <summary>
    /// A multipart upload this long past its start, whose last part is as old, is abandoned (its
    /// writer crashed or was killed) and is aborted by the sweep that every replica runs.
    /// </summary>
    public TimeSpan AbandonedUploadAge { get; set; } = TimeSpan.FromDays(1);

    /// <summary>
    /// Seconds one request to the store may take, retries included, and one read of an object's body
    /// may wait for the next bytes: past it the store counts as unavailable (503 / gRPC UNAVAILABLE,
    /// reason STORAGE_UNAVAILABLE) instead of holding the client. A part of a multipart upload
    /// (8-16 MiB) must go up within it.
    /// </summary>
    public int TimeoutSeconds { get; set; } = DefaultTimeoutSeconds;

    internal const int DefaultTimeoutSeconds = 30;

    internal TimeSpan Timeout => TimeSpan.FromSeconds(TimeoutSeconds);

    /// <summary>
    /// How long a name's write lease lasts before another replica may take it over (a holder that
    /// crashed). Not a setting: tests shorten it.
    /// </summary>
    internal TimeSpan LeaseDuration { get; set; } = TimeSpan.FromSeconds(60);
}
