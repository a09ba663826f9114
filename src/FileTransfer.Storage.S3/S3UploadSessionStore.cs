using System.Runtime.CompilerServices;
using Amazon.S3;
using Amazon.S3.Model;
using FileTransfer.Core;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace FileTransfer.Storage.S3;

/// <summary>
/// Upload sessions in the bucket, so that any replica continues a session another one began. The
/// record of session <c>ID</c> is <c>.ft-sessions/ID.json</c> (<see cref="S3SessionRecord"/>); its
/// bytes are a multipart upload of the target's own key, so that the commit is the backend's usual
/// completion, plus a tail shorter than a part in <c>.ft-sessions/ID.tail-*</c> (a new key for each
/// save, so that a record always names a tail that matches it). One writer across replicas: a lease
/// in the bucket (<see cref="NameLeases"/>, area <c>session-lease</c>), renewed while it is used and
/// lapsing on its own when its holder dies. The abandoned-upload sweep spares the uploads that
/// records name (<see cref="UploadIdsAsync"/>); the session sweeper's delete aborts them.
/// </summary>
internal sealed class S3UploadSessionStore(
    BucketClient bucket,
    NameLeases leases,
    S3StorageBackend backend,
    IOptions<StorageOptions> storage,
    ILogger<S3UploadSessionStore> logger) : IUploadSessionStore
{
    public const string LeaseArea = "session-lease";

    /// <summary>Where records and tails are, under the prefix's reserved area (no listing shows it).</summary>
    public string Folder { get; } = bucket.Prefix + BucketClient.ReservedArea + "sessions/";

    internal BucketClient Bucket => bucket;

    internal NameLeases Leases => leases;

    internal S3StorageBackend Backend => backend;

    internal ILogger Logger => logger;

    /// <summary>Parts as a staged upload of the largest file would cut them.</summary>
    internal int PartSize => PartSizes.For(storage.Value.MaxFileSizeBytes);

    public async ValueTask CreateAsync(UploadSession session, CancellationToken cancellationToken)
    {
        // The backend's own checks before a byte arrives (a folder, a name under a file, too long a key).
        await using (await backend.StageAsync(session.Name, session.Length, cancellationToken))
        {
        }

        await PutRecordAsync(new S3SessionRecord(session), cancellationToken);
    }

    public async ValueTask<UploadSession?> GetAsync(string id, CancellationToken cancellationToken)
    {
        // A save of this session that an outage interrupted here goes first: the client asks for the offset to resume from.
        await bucket.Cleanup.RunNowAsync(CleanupKey(id));
        return (await ReadRecordAsync(RecordKey(id), cancellationToken))?.ToSession();
    }

    public async ValueTask<IUploadSessionLease?> TryAcquireAsync(string id, CancellationToken cancellationToken)
    {
        // A save of this session that an outage interrupted here goes first (and gives the lease back).
        await bucket.Cleanup.RunNowAsync(CleanupKey(id));
        if (await ReadRecordAsync(RecordKey(id), cancellationToken) is null)
        {
            throw Failures.UploadNotFound();
        }

        var lease = await leases.TryAcquireAsync(LeaseArea, id, cancellationToken);
        if (lease is null)
        {
            return null;
        }

        // Read again under the lease: the record the last writer saved, which nobody changes while we hold it.
        S3SessionRecord? record;
        try
        {
            record = await ReadRecordAsync(RecordKey(id), cancellationToken);
        }
        catch
        {
            await leases.ReleaseAsync(lease);
            throw;
        }

        if (record is null)
        {
            await leases.ReleaseAsync(lease);
            throw Failures.UploadNotFound();
        }

        return new S3SessionLease(this, record, lease);
    }

    public async IAsyncEnumerable<UploadSession> ListAsync([EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await foreach (var record in RecordsAsync(cancellationToken))
        {
            yield return record.ToSession();
        }
    }

    /// <summary>The multipart uploads that session records name: not abandoned, however long they sit idle.</summary>
    internal async Task<HashSet<string>> UploadIdsAsync(CancellationToken cancellationToken)
    {
        var ids = new HashSet<string>(StringComparer.Ordinal);
        await foreach (var record in RecordsAsync(cancellationToken))
        {
            if (record.UploadId is { } uploadId)
            {
                ids.Add(uploadId);
            }
        }

        return ids;
    }

    internal string RecordKey(string id) => $"{Folder}{id}.json";

    /// <summary>What the clean-up queue calls a save of session <paramref name="id"/> that waits for the store.</summary>
    internal static string CleanupKey(string id) => $"save of upload {id}";

    internal string NewTailKey(string id) => $"{Folder}{id}.tail-{Guid.NewGuid():N}";

    /// <summary>Every object of session <paramref name="id"/> (record, tails): ids are base64url, so no other id shares the prefix.</summary>
    internal async Task<List<string>> KeysOfAsync(string id, CancellationToken cancellationToken) =>
        await KeysAsync($"{Folder}{id}.", cancellationToken);

    internal async Task PutRecordAsync(S3SessionRecord record, CancellationToken cancellationToken)
    {
        using var body = new MemoryStream(record.ToJson(), writable: false);
        await bucket.Client.PutObjectAsync(
            new PutObjectRequest { BucketName = bucket.Name, Key = RecordKey(record.Id), InputStream = body, AutoCloseStream = false, ContentType = "application/json" },
            cancellationToken);
    }

    private async Task<S3SessionRecord?> ReadRecordAsync(string key, CancellationToken cancellationToken)
    {
        try
        {
            using var response = await bucket.Client.GetObjectAsync(bucket.Name, key, cancellationToken);
            return S3SessionRecord.Parse(response.ResponseStream);
        }
        catch (AmazonS3Exception ex) when (S3Failures.IsNotFound(ex))
        {
            return null;
        }
    }

    // Every record in the bucket, read one by one (a record gone since the listing is skipped).
    private async IAsyncEnumerable<S3SessionRecord> RecordsAsync([EnumeratorCancellation] CancellationToken cancellationToken)
    {
        foreach (var key in await KeysAsync(Folder, cancellationToken))
        {
            if (key.EndsWith(".json", StringComparison.Ordinal) && await ReadRecordAsync(key, cancellationToken) is { } record)
            {
                yield return record;
            }
        }
    }

    private async Task<List<string>> KeysAsync(string prefix, CancellationToken cancellationToken)
    {
        var keys = new List<string>();
        var request = new ListObjectsV2Request { BucketName = bucket.Name, Prefix = prefix };
        try
        {
            ListObjectsV2Response page;
            do
            {
                page = await bucket.Client.ListObjectsV2Async(request, cancellationToken);
                keys.AddRange(page.S3Objects?.Select(o => o.Key) ?? []);
                request.ContinuationToken = page.NextContinuationToken;
            }
            while (page.IsTruncated == true);
        }
        catch (AmazonS3Exception ex) when (ex.ErrorCode == "NoSuchBucket")
        {
            // Before the start-up check created it (the session sweeper starts first): no sessions yet.
            return [];
        }

        return keys;
    }
}
