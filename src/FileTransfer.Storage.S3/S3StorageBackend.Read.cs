using System.Text;
using Amazon.S3.Model;
using FileTransfer.Core;

namespace FileTransfer.Storage.S3;

internal sealed partial class S3StorageBackend
{
    /// <summary>Keys one listing page may examine before it returns what it has with a cursor: a bound on one request's work.</summary>
    internal const int MaxKeysPerPage = 20_000;

    // Keys from here on are past every key of the reserved area (".ft-" and any character but the
    // largest code point): a listing that reaches the area jumps over the server's own objects.
    private const string PastReservedArea = BucketClient.ReservedArea + "\U0010FFFF";

    public async ValueTask<StoredObject?> StatAsync(string name, CancellationToken cancellationToken)
    {
        return bucket.KeyOf(name) is { } key && await HeadAsync(key, cancellationToken) is { } head ? Describe(name, head) : null;
    }

    /// <summary>
    /// Describes the current version with one HEAD (its digest from its metadata or its record) and
    /// returns it pinned to that version: every read is a GET with <c>If-Match</c> on its ETag.
    /// </summary>
    public async ValueTask<IOpenedObject?> OpenAsync(string name, CancellationToken cancellationToken)
    {
        if (bucket.KeyOf(name) is not { } key || await HeadAsync(key, cancellationToken) is not { } head)
        {
            return null;
        }

        var version = Describe(name, head);
        var sha256 = version.Sha256 ?? await digests.FindAsync(name, version.ETag, cancellationToken);
        return new S3OpenedObject(bucket, key, version with { Sha256 = sha256 });
    }

    /// <summary>
    /// One page of ListObjectsV2 under the prefix, which a store lists in UTF-8 byte order, the core's
    /// <see cref="NameOrder"/>. Keys that fail the name rules (the server's reserved area, or what
    /// other programs put in the bucket) are passed over; the cursor is the last key examined.
    /// </summary>
    public async ValueTask<ObjectPage> ListAsync(ListRequest request, CancellationToken cancellationToken)
    {
        var found = new List<StoredObject>();
        var nameBytes = 0;
        var examined = 0;
        string? lastExamined = request.After;
        var listing = new ListObjectsV2Request
        {
            BucketName = bucket.Name,
            Prefix = bucket.Prefix + request.Prefix,
            StartAfter = request.After is null ? null : bucket.Prefix + request.After,
            MaxKeys = Math.Clamp(request.Limit + 1, 1, 1000),
        };

        while (true)
        {
            var page = await bucket.Client.ListObjectsV2Async(listing, cancellationToken);
            string? jumpTo = null;
            foreach (var item in page.S3Objects ?? [])
            {
                var name = bucket.NameOf(item.Key);
                examined++;
                if (!FileNames.IsValid(name))
                {
                    lastExamined = name;
                    if (name.StartsWith(BucketClient.ReservedArea, StringComparison.Ordinal) && NameOrder.Compare(PastReservedArea, name) > 0)
                    {
                        jumpTo = bucket.Prefix + PastReservedArea;
                        break;
                    }

                    continue;
                }

                var bytes = Encoding.UTF8.GetByteCount(name);
                if (found.Count == request.Limit || (found.Count > 0 && nameBytes + bytes > request.MaxNameBytes))
                {
                    // A visible name follows: this page ends before it.
                    return new ObjectPage(found, found[^1].Name);
                }

                found.Add(new StoredObject(name, item.Size ?? 0, LastModifiedOf(item.LastModified), S3ETags.Quoted(item.ETag)));
                nameBytes += bytes;
                lastExamined = name;
            }

            if (jumpTo is not null)
            {
                listing.ContinuationToken = null;
                listing.StartAfter = jumpTo;
            }
            else if (page.IsTruncated == true)
            {
                listing.ContinuationToken = page.NextContinuationToken;
            }
            else
            {
                return new ObjectPage(found, null);
            }

            // Out of budget: resume after the last key examined (past the previous cursor: every page makes progress).
            if (examined >= MaxKeysPerPage && lastExamined != request.After)
            {
                return new ObjectPage(found, jumpTo is not null ? PastReservedArea : lastExamined);
            }
        }
    }
}
