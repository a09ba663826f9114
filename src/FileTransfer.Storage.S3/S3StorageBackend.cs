using System.Collections.Concurrent;
using Amazon.S3;
using Amazon.S3.Model;
using FileTransfer.Core;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace FileTransfer.Storage.S3;

/// <summary>
/// Files as objects of an S3-compatible bucket, named as clients name them (under an optional
/// prefix). Reads describe one version with a HEAD and fetch its bytes with ranged GETs pinned to
/// that version's ETag; writes stream into a multipart upload (or one PutObject for a small file)
/// that only the commit makes visible, under a write lease on the name that every replica honours
/// (<see cref="NameLeases"/>); digests live in the bucket (<see cref="S3Digests"/>). Nothing that
/// another replica needs is kept only in this process.
/// </summary>
internal sealed partial class S3StorageBackend(
    BucketClient bucket,
    NameLeases leases,
    S3Digests digests,
    IOptions<S3StorageOptions> options,
    IOptions<StorageOptions> storage,
    TimeProvider time,
    ILogger<S3StorageBackend> logger) : IStorageBackend
{
    /// <summary>
    /// Most bytes that sealed, uncommitted single-PUT writes may hold in memory at once: a form of
    /// many small files, or many uploads between seal and commit, go to multipart uploads past it.
    /// </summary>
    internal const long DefaultMaxHeldBytes = 64L * 1024 * 1024;

    // Multipart uploads this process is writing: the sweep never aborts them, however old.
    private readonly ConcurrentDictionary<string, byte> _inProgress = new(StringComparer.Ordinal);
    private long _heldBytes;

    /// <summary><see cref="DefaultMaxHeldBytes"/>; tests set 0 to send every write through a multipart upload.</summary>
    internal long MaxHeldBytes { get; set; } = DefaultMaxHeldBytes;

    public string Location => bucket.Location;

    public async ValueTask<bool> IsAvailableAsync(CancellationToken cancellationToken)
    {
        try
        {
            await bucket.Client.HeadBucketAsync(new HeadBucketRequest { BucketName = bucket.Name }, cancellationToken);
            return true;
        }
        catch (FileTransferException ex) when (S3Failures.IsUnavailable(ex))
        {
            return false;
        }
    }

    /// <summary>True while a write of this process owns the multipart upload <paramref name="uploadId"/>.</summary>
    internal bool IsInProgress(string uploadId) => _inProgress.ContainsKey(uploadId);

    /// <summary>Reserves <paramref name="bytes"/> of <see cref="MaxHeldBytes"/> for a sealed small write; false when they do not fit.</summary>
    internal bool TryHold(int bytes)
    {
        if (Interlocked.Add(ref _heldBytes, bytes) <= MaxHeldBytes && (bytes > 0 || MaxHeldBytes > 0))
        {
            return true;
        }

        Interlocked.Add(ref _heldBytes, -bytes);
        return false;
    }

    internal void ReleaseHeld(int bytes) => Interlocked.Add(ref _heldBytes, -bytes);

    internal async Task<string> StartMultipartAsync(string key, CancellationToken cancellationToken)
    {
        var started = await bucket.Client.InitiateMultipartUploadAsync(new InitiateMultipartUploadRequest { BucketName = bucket.Name, Key = key }, cancellationToken);
        _inProgress[started.UploadId] = 0;
        return started.UploadId;
    }

    /// <summary>Uploads one part from a pooled buffer (wrapped, not copied); returns its ETag.</summary>
    internal async Task<string> UploadPartAsync(string key, string uploadId, int number, ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        using var body = AsStream(bytes);
        var uploaded = await bucket.Client.UploadPartAsync(
            new UploadPartRequest { BucketName = bucket.Name, Key = key, UploadId = uploadId, PartNumber = number, InputStream = body, PartSize = bytes.Length },
            cancellationToken);
        return uploaded.ETag;
    }

    /// <summary>
    /// Aborts a multipart upload that will not be committed. A store that fails meanwhile (the usual
    /// reason a write is cut) gets the abort again once it answers (<see cref="BucketClient.Cleanup"/>),
    /// not only at the next sweep: an outage would otherwise leave a part-size buffer's worth of
    /// invisible bytes per cut write for a day.
    /// </summary>
    /// <param name="key">The upload's key.</param>
    /// <param name="uploadId">The upload.</param>
    /// <param name="tryNow">False when the store has just failed this write: the abort is only queued.</param>
    internal async Task AbortAsync(string key, string uploadId, bool tryNow = true)
    {
        try
        {
            if (tryNow)
            {
                await AbortNowAsync(key, uploadId);
            }
            else
            {
                Log.AbortDeferred(logger, key, uploadId);
                bucket.Cleanup.Add($"abort of upload {uploadId}", () => AbortNowAsync(key, uploadId));
            }
        }
        catch (FileTransferException ex) when (S3Failures.IsUnavailable(ex))
        {
            Log.AbortFailed(logger, key, uploadId, ex);
            bucket.Cleanup.Add($"abort of upload {uploadId}", () => AbortNowAsync(key, uploadId));
        }
        finally
        {
            _inProgress.TryRemove(uploadId, out _);
        }
    }

    // Not the request's token: the client that went away is the usual reason to abort.
    private async Task AbortNowAsync(string key, string uploadId)
    {
        try
        {
            await bucket.Client.AbortMultipartUploadAsync(bucket.Name, key, uploadId, CancellationToken.None);
        }
        catch (AmazonS3Exception ex) when (S3Failures.IsNotFound(ex))
        {
            // Aborted already (an earlier try whose answer was lost, or the sweep).
        }
    }

    internal void Completed(string uploadId) => _inProgress.TryRemove(uploadId, out _);

    /// <summary>The current version of <paramref name="key"/> (HEAD), or null when there is none.</summary>
    private async Task<GetObjectMetadataResponse?> HeadAsync(string key, CancellationToken cancellationToken)
    {
        try
        {
            return await bucket.Client.GetObjectMetadataAsync(bucket.Name, key, cancellationToken);
        }
        catch (AmazonS3Exception ex) when (S3Failures.IsNotFound(ex))
        {
            return null;
        }
    }

    // The digest comes along when the object's metadata carries it (a single PUT through this server): free with the HEAD.
    private static StoredObject Describe(string name, GetObjectMetadataResponse head) =>
        new(name, head.ContentLength, LastModifiedOf(head.LastModified), S3ETags.Quoted(head.ETag), S3Digests.FromMetadata(head.Metadata));

    // The SDK hands times out as local or UTC DateTimes depending on the call; both are the same instant.
    private static DateTimeOffset LastModifiedOf(DateTime? lastModified) => lastModified switch
    {
        null => DateTimeOffset.UnixEpoch,
        { Kind: DateTimeKind.Unspecified } value => new DateTimeOffset(value, TimeSpan.Zero),
        { } value => new DateTimeOffset(value.ToUniversalTime(), TimeSpan.Zero),
    };

    private static MemoryStream AsStream(ReadOnlyMemory<byte> bytes) =>
        System.Runtime.InteropServices.MemoryMarshal.TryGetArray(bytes, out var segment)
            ? new MemoryStream(segment.Array!, segment.Offset, segment.Count, writable: false)
            : new MemoryStream(bytes.ToArray(), writable: false);
}
