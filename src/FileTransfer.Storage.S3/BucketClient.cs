using System.Security.Cryptography;
using System.Text;
using Amazon.Runtime;
using Amazon.S3;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Storage.S3;

/// <summary>
/// The bucket and how names map to keys: a file's key is the prefix and its name, nothing else
/// (names reach the backend already checked against the core's rules). The server's own objects
/// (leases, digests) live under the reserved <c>.ft-</c> area of the prefix, which no name can
/// reach and no listing shows. Holds the one S3 client of the process, and the clean-up that waits
/// for the store to answer again (<see cref="Cleanup"/>).
/// </summary>
internal sealed class BucketClient : IDisposable
{
    /// <summary>S3's (and RGW's) longest key in UTF-8 bytes.</summary>
    public const int MaxKeyBytes = 1024;

    /// <summary>Where the server keeps what is not a file, under the prefix.</summary>
    public const string ReservedArea = ".ft-";

    private readonly AmazonS3Client _client;
    private readonly AmazonS3Client _presigner;

    public BucketClient(IOptions<S3StorageOptions> options, ILogger<BucketClient>? logger = null)
    {
        Cleanup = new CleanupQueue((ILogger?)logger ?? NullLogger.Instance);
        var settings = options.Value;
        Name = settings.Bucket!;
        Prefix = NormalizePrefix(settings.Prefix);
        var endpoint = new Uri(settings.ServiceUrl!);
        _client = CreateClient(endpoint, settings);
        PublicEndpoint = string.IsNullOrEmpty(settings.PublicServiceUrl) ? endpoint : new Uri(settings.PublicServiceUrl);
        _presigner = PublicEndpoint == endpoint ? _client : CreateClient(PublicEndpoint, settings);
        Location = $"s3://{endpoint.Authority}/{Name}/{Prefix}";
    }

    public IAmazonS3 Client => _client;

    /// <summary>What the store could not take while it failed, tried again once it answers.</summary>
    public CleanupQueue Cleanup { get; }

    /// <summary>
    /// Puts <paramref name="request"/> only if the key holds no object (<paramref name="ifMatch"/> null:
    /// <c>If-None-Match: *</c>) or exactly the version <paramref name="ifMatch"/>; returns the new ETag,
    /// or null when the condition failed. RGW honours both on PutObject, atomically: of two writers
    /// that read the same version, exactly one succeeds (what the leases and quota records rest on).
    /// </summary>
    public async Task<string?> TryPutAsync(Amazon.S3.Model.PutObjectRequest request, string? ifMatch, CancellationToken cancellationToken)
    {
        if (ifMatch is null)
        {
            request.IfNoneMatch = "*";
        }
        else
        {
            request.IfMatch = S3ETags.Bare(ifMatch); // RGW 16 matches If-Match on PutObject only unquoted
        }

        try
        {
            var response = await _client.PutObjectAsync(request, cancellationToken);
            return S3ETags.Quoted(response.ETag);
        }
        catch (AmazonS3Exception ex) when (S3Failures.IsPreconditionFailed(ex) || ex.StatusCode == System.Net.HttpStatusCode.Conflict || (ifMatch is not null && S3Failures.IsNotFound(ex)))
        {
            // 412: the condition failed; 409: S3's answer to two conditional writes of one key at once;
            // 404 on If-Match: the object was removed meanwhile, so the version is not there.
            return null;
        }
    }

    /// <summary>Signs URLs for the store's address as clients reach it (it never sends a request).</summary>
    public IAmazonS3 Presigner => _presigner;

    /// <summary>The store's address as clients reach it (<see cref="S3StorageOptions.PublicServiceUrl"/>, else the service URL).</summary>
    public Uri PublicEndpoint { get; }

    /// <summary>The bucket's name.</summary>
    public string Name { get; }

    /// <summary>"" or a prefix ending in '/'.</summary>
    public string Prefix { get; }

    /// <summary><c>s3://host:port/bucket/prefix/</c>: where the files are, with no credential in it.</summary>
    public string Location { get; }

    /// <summary>A prefix as keys use it: empty, or ending in exactly one '/'.</summary>
    public static string NormalizePrefix(string? prefix) =>
        string.IsNullOrEmpty(prefix) ? "" : prefix.TrimEnd('/') + "/";

    /// <summary>
    /// The key of file <paramref name="name"/>, or null when prefix and name together are longer than
    /// a key may be (the store cannot hold that name; it is refused as a name, not as a failure).
    /// </summary>
    public string? KeyOf(string name)
    {
        var key = Prefix + name;
        return Encoding.UTF8.GetByteCount(key) <= MaxKeyBytes ? key : null;
    }

    /// <summary>The file name of a key listed under the prefix.</summary>
    public string NameOf(string key) => key[Prefix.Length..];

    /// <summary>
    /// A reserved key for something kept about <paramref name="name"/> (<c>lease</c>, <c>sha256</c>):
    /// named by the SHA-256 of the name, so that it is short and fixed whatever the name's length.
    /// </summary>
    public string ReservedKeyFor(string area, string name)
    {
        var hash = Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(name)));
        return $"{Prefix}{ReservedArea}{area}/{hash[..2]}/{hash}";
    }

    /// <summary>
    /// A client as every S3 call of the backend needs it: path-style addressing (RGW and most
    /// self-hosted stores have no virtual-host DNS), checksums only where an operation requires one
    /// (RGW 16 refuses the SDK's default trailing checksums with 400 XAmzContentSHA256Mismatch), and
    /// every call bounded by <see cref="S3StorageOptions.TimeoutSeconds"/>, its failures mapped once
    /// (<see cref="StoreCallHandler"/>).
    /// </summary>
    public static AmazonS3Client CreateClient(Uri endpoint, S3StorageOptions settings) =>
        new StoreClient(
            new BasicAWSCredentials(settings.AccessKey, settings.SecretKey),
            new AmazonS3Config
            {
                ServiceURL = endpoint.ToString(),
                AuthenticationRegion = settings.Region,
                ForcePathStyle = true,
                UseHttp = endpoint.Scheme == Uri.UriSchemeHttp,
                RequestChecksumCalculation = RequestChecksumCalculation.WHEN_REQUIRED,
                ResponseChecksumValidation = ResponseChecksumValidation.WHEN_REQUIRED,

                // One attempt never outlives the call's deadline (the SDK's default is 100 s per attempt).
                Timeout = settings.Timeout,
            });

    public void Dispose()
    {
        Cleanup.Dispose();
        _client.Dispose();
        _presigner.Dispose();
    }

    // The SDK builds its pipeline in the base constructor, from the configuration already set: the
    // deadline comes from there, not from a field of this class (not yet assigned at that point).
    private sealed class StoreClient(AWSCredentials credentials, AmazonS3Config config) : AmazonS3Client(credentials, config)
    {
        protected override void CustomizeRuntimePipeline(Amazon.Runtime.Internal.RuntimePipeline pipeline)
        {
            base.CustomizeRuntimePipeline(pipeline);
            pipeline.AddHandler(new StoreCallHandler(Config.Timeout ?? TimeSpan.FromSeconds(S3StorageOptions.DefaultTimeoutSeconds)));
        }
    }
}
