using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;
using Amazon.S3;
using Amazon.S3.Model;
using FileTransfer.Core;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Storage.S3;

/// <summary>
/// Every version's SHA-256, kept in the bucket so that every replica knows it. A file stored in one
/// PutObject carries it as user metadata (<c>x-amz-meta-ft-sha256</c>), written with the bytes. A
/// multipart upload's metadata is fixed when it starts, before the digest is known, so its digest is a
/// small record object keyed by the name and the version's ETag (<c>.ft-sha256/../HASH/ETAG</c>),
/// written before the completion makes the version visible; the core's digest of a file placed by
/// other means is kept the same way. Keyed by ETag, a record can only ever describe the version it
/// was written for: a replaced or deleted version's record is never read for another one.
/// </summary>
/// <remarks>
/// The ETag is a hash of the content, so a record never goes stale while it exists; records of
/// replaced and deleted versions are removed by the commit or delete that ended them. The cache
/// holds what was read, by name and ETag, for the same reason.
/// </remarks>
internal sealed class S3Digests(BucketClient bucket, ILogger<S3Digests> logger)
{
    /// <summary>The user-metadata name of the digest (lowercase hex) on a single-PUT object.</summary>
    public const string MetadataName = "ft-sha256";

    private const string Area = "sha256";
    private const int MaxCachedEntries = 100_000;

    private readonly ConcurrentDictionary<(string Name, string ETag), byte[]> _cache = new();

    /// <summary>The digest an object's user metadata carries, or null.</summary>
    public static byte[]? FromMetadata(MetadataCollection metadata) => Parse(metadata[MetadataName]);

    /// <summary>Where the record of <paramref name="name"/>'s version <paramref name="etag"/> lives.</summary>
    public string KeyOf(string name, string etag)
    {
        var bare = S3ETags.Bare(etag);

        // ETags are hex (and "-N" for multipart) on every store we know; anything else is hashed into a safe key.
        var part = bare.Length is > 0 and <= 64 && bare.All(c => char.IsAsciiLetterOrDigit(c) || c == '-')
            ? bare
            : Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(bare)));
        return $"{bucket.ReservedKeyFor(Area, name)}/{part}";
    }

    /// <summary>The digest recorded for that version, or null.</summary>
    public async ValueTask<byte[]?> FindAsync(string name, string etag, CancellationToken cancellationToken)
    {
        if (_cache.TryGetValue((name, etag), out var cached))
        {
            return cached;
        }

        string text;
        try
        {
            using var response = await bucket.Client.GetObjectAsync(bucket.Name, KeyOf(name, etag), cancellationToken);
            using var reader = new StreamReader(response.ResponseStream, Encoding.UTF8);
            text = await reader.ReadToEndAsync(cancellationToken);
        }
        catch (AmazonS3Exception ex) when (S3Failures.IsNotFound(ex))
        {
            return null;
        }

        // "<sha256 hex> <name>\n": the name says whose record it is (a hash collision of names is not believed).
        var parts = text.TrimEnd('\n').Split(' ', 2);
        var sha256 = parts.Length == 2 && parts[1] == name ? Parse(parts[0]) : null;
        if (sha256 is not null)
        {
            Remember(name, etag, sha256);
        }

        return sha256;
    }

    /// <summary>Records the digest of <paramref name="name"/>'s version <paramref name="etag"/>.</summary>
    public async Task SaveAsync(string name, string etag, byte[] sha256, CancellationToken cancellationToken)
    {
        await bucket.Client.PutObjectAsync(
            new PutObjectRequest
            {
                BucketName = bucket.Name,
                Key = KeyOf(name, etag),
                ContentBody = $"{Convert.ToHexStringLower(sha256)} {name}\n",
                ContentType = "text/plain; charset=utf-8",
            },
            cancellationToken);
        Remember(name, etag, sha256);
    }

    /// <summary>Removes the record of a version that is gone (best effort: a leftover record names a version nobody will open).</summary>
    public async Task ForgetAsync(string name, string etag)
    {
        _cache.TryRemove((name, etag), out _);
        var key = KeyOf(name, etag);
        try
        {
            await bucket.Client.DeleteObjectAsync(bucket.Name, key, CancellationToken.None);
        }
        catch (FileTransferException ex) when (S3Failures.IsUnavailable(ex))
        {
            Log.DigestForgetFailed(logger, key, ex);
        }
    }

    /// <summary>Remembers a digest known to belong to that version (written with it, or read from the store).</summary>
    public void Remember(string name, string etag, byte[] sha256)
    {
        if (_cache.Count >= MaxCachedEntries)
        {
            _cache.Clear();
        }

        _cache[(name, etag)] = sha256;
    }

    private static byte[]? Parse(string? hex) =>
        hex is { Length: SHA256.HashSizeInBytes * 2 } && hex.All(char.IsAsciiHexDigit) ? Convert.FromHexString(hex) : null;
}
