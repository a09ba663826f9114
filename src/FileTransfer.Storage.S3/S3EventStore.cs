using System.Net;
using System.Runtime.CompilerServices;
using Amazon.S3;
using Amazon.S3.Model;
using FileTransfer.Core;

namespace FileTransfer.Storage.S3;

/// <summary>
/// Events in the bucket, under the prefix's reserved <c>.ft-events/</c> (no listing shows it), so
/// that every replica on the bucket reads every other's journal and shares one outbox. Creates use
/// <c>If-None-Match: *</c> and replaces <c>If-Match</c> on the object's ETag, which RGW honours on
/// PutObject (unquoted), so that of two replicas taking the same outbox entry one wins.
/// </summary>
internal sealed class S3EventStore(BucketClient bucket) : IEventStore
{
    private readonly string _folder = bucket.Prefix + BucketClient.ReservedArea + "events/";

    public bool IsShared => true;

    public ValueTask<string?> TryCreateAsync(string key, ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken) =>
        PutAsync(key, bytes, ifMatch: null, cancellationToken);

    public ValueTask<string?> TryReplaceAsync(string key, string version, ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken) =>
        PutAsync(key, bytes, version, cancellationToken);

    public async ValueTask<EventStoreObject?> ReadAsync(string key, CancellationToken cancellationToken)
    {
        try
        {
            using var response = await bucket.Client.GetObjectAsync(bucket.Name, _folder + key, cancellationToken);
            using var bytes = new MemoryStream((int)Math.Max(0, response.ContentLength));
            await response.ResponseStream.CopyToAsync(bytes, cancellationToken);
            return new EventStoreObject(bytes.ToArray(), S3ETags.Quoted(response.ETag));
        }
        catch (AmazonS3Exception ex) when (S3Failures.IsNotFound(ex))
        {
            return null;
        }
    }

    public async IAsyncEnumerable<string> ListAsync(string prefix, string? startAfter, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var request = new ListObjectsV2Request
        {
            BucketName = bucket.Name,
            Prefix = _folder + prefix,
            StartAfter = startAfter is null ? null : _folder + startAfter,
        };
        do
        {
            var page = await bucket.Client.ListObjectsV2Async(request, cancellationToken);
            foreach (var item in page.S3Objects ?? [])
            {
                yield return item.Key[_folder.Length..];
            }

            request.ContinuationToken = page.IsTruncated == true ? page.NextContinuationToken : null;
        }
        while (request.ContinuationToken is not null);
    }

    public async ValueTask DeleteAsync(string key, CancellationToken cancellationToken) =>
        await bucket.Client.DeleteObjectAsync(bucket.Name, _folder + key, cancellationToken);

    private async ValueTask<string?> PutAsync(string key, ReadOnlyMemory<byte> bytes, string? ifMatch, CancellationToken cancellationToken)
    {
        using var body = new MemoryStream(bytes.ToArray(), writable: false);
        var request = new PutObjectRequest { BucketName = bucket.Name, Key = _folder + key, InputStream = body, ContentType = "application/json" };
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
            return S3ETags.Quoted((await bucket.Client.PutObjectAsync(request, cancellationToken)).ETag);
        }
        catch (AmazonS3Exception ex) when (S3Failures.IsPreconditionFailed(ex) || ex.StatusCode == HttpStatusCode.Conflict || (ifMatch is not null && S3Failures.IsNotFound(ex)))
        {
            // 412: the condition failed; 409: two conditional writes of one key at once; 404: it is gone.
            return null;
        }
    }
}
