using Amazon.S3;
using Amazon.S3.Model;
using FileTransfer.Core;

namespace FileTransfer.Storage.S3;

/// <summary>
/// Quota records in the bucket, one object per folder (<c>.ft-quota/..</c>, named by the folder's
/// hash), shared by every replica and changed by the same conditional writes the name leases rest on:
/// created with <c>If-None-Match: *</c>, replaced with <c>If-Match</c> on the ETag read, which RGW
/// honours on PutObject. Of two replicas that change a record at once, exactly one write succeeds;
/// the other reads it again and applies its change to what the first left, so no reservation is
/// ever lost or counted twice.
/// </summary>
internal sealed class S3QuotaStore(BucketClient bucket) : IQuotaStore
{
    private const string Area = "quota";
    private const int MaxAttempts = 50;
    private static readonly TimeSpan FirstRetry = TimeSpan.FromMilliseconds(5);

    public async ValueTask<QuotaRecord> UpdateAsync(string folder, Func<QuotaRecord?, QuotaRecord> change, CancellationToken cancellationToken)
    {
        var key = bucket.ReservedKeyFor(Area, folder);
        var delay = FirstRetry;
        for (var attempt = 1; ; attempt++)
        {
            // A store that fails reaches here as STORAGE_UNAVAILABLE already (the client's pipeline).
            var (current, etag) = await ReadRecordAsync(key, cancellationToken);
            var changed = change(current);
            if (ReferenceEquals(changed, current) || await TryWriteAsync(key, changed, etag, cancellationToken))
            {
                return changed;
            }

            if (attempt == MaxAttempts)
            {
                throw Failures.Unavailable($"The quota record of '{folder}' keeps changing under this server's writes; try again.");
            }

            // Jittered, so that replicas that collided do not collide again in step.
            await Task.Delay(delay * (0.5 + Random.Shared.NextDouble()), cancellationToken);
            delay = TimeSpan.FromTicks(Math.Min(delay.Ticks * 2, TimeSpan.FromMilliseconds(200).Ticks));
        }
    }

    public async ValueTask<QuotaRecord?> ReadAsync(string folder, CancellationToken cancellationToken) =>
        (await ReadRecordAsync(bucket.ReservedKeyFor(Area, folder), cancellationToken)).Record;

    // The record and its ETag; (null, null) when there is none, (null, etag) when it does not parse.
    private async Task<(QuotaRecord? Record, string? ETag)> ReadRecordAsync(string key, CancellationToken cancellationToken)
    {
        try
        {
            using var response = await bucket.Client.GetObjectAsync(bucket.Name, key, cancellationToken);
            var record = await QuotaRecord.ParseAsync(response.ResponseStream, cancellationToken);
            return (record, S3ETags.Quoted(response.ETag));
        }
        catch (AmazonS3Exception ex) when (S3Failures.IsNotFound(ex))
        {
            return (null, null);
        }
    }

    // Created when there was none, else replacing exactly the version read; false when another write came first.
    private async Task<bool> TryWriteAsync(string key, QuotaRecord record, string? etag, CancellationToken cancellationToken)
    {
        var request = new PutObjectRequest
        {
            BucketName = bucket.Name,
            Key = key,
            InputStream = new MemoryStream(record.ToJson()),
            ContentType = "application/json",
        };
        return await bucket.TryPutAsync(request, etag, cancellationToken) is not null;
    }
}
