using Amazon.S3;
using Amazon.S3.Model;
using FileTransfer.Core;

namespace FileTransfer.Storage.S3;

internal sealed partial class S3StorageBackend
{
    /// <summary>
    /// Refuses what a disk would refuse before any byte arrives, so that both backends agree on
    /// folders: a name that is a folder (some key lies below it) or lies below a file. S3 itself
    /// would hold both "a" and "a/b". The commit checks again under the name's lease; two uploads of
    /// "a" and "a/b" committing at the same instant (different leases) can still store both, and
    /// every listing, read and delete still works on such a pair.
    /// </summary>
    public async ValueTask<IStagedObject> StageAsync(string name, long? declaredLength, CancellationToken cancellationToken)
    {
        var key = bucket.KeyOf(name) ?? throw TooLong();
        await RefuseFolderConflictsAsync(name, key, cancellationToken);
        return new S3StagedObject(this, name, key, PartSizes.For(storage.Value.MaxFileSizeBytes), declaredLength);
    }

    /// <summary>
    /// Commits staged writes as one: holding every name's lease, each current version is read and
    /// every precondition checked before the first write becomes visible, so a failed check stores
    /// none of them. A single-PUT write is also conditional on the version it replaces (the store's
    /// own If-Match / If-None-Match: *); a multipart completion, whose conditions RGW 16 ignores, relies
    /// on the lease. Only a store failure between two writes can leave the earlier ones stored.
    /// </summary>
    public async ValueTask<IReadOnlyList<CommittedObject>> CommitAsync(IReadOnlyList<PendingCommit> commits, CancellationToken cancellationToken)
    {
        var staged = commits.Select(c => (S3StagedObject)c.Staged).ToArray();
        await using var held = await leases.AcquireAsync(staged.Select(s => s.Name), cancellationToken);
        var existing = new StoredObject?[staged.Length];
        for (var i = 0; i < staged.Length; i++)
        {
            // Folders again, under the lease, alongside the current version: another write may
            // have put a key below the name, or stored a folder of it as a file, since it began.
            var conflicts = RefuseFolderConflictsAsync(staged[i].Name, staged[i].Key, cancellationToken);
            var current = CurrentAsync(staged[i].Name, staged[i].Key, cancellationToken);
            await Task.WhenAll(conflicts, current);
            existing[i] = await current;
        }

        for (var i = 0; i < staged.Length; i++)
        {
            commits[i].Preconditions.Check(staged[i].Name, existing[i]);
        }

        var results = new CommittedObject[staged.Length];
        for (var i = 0; i < staged.Length; i++)
        {
            var stored = await CompleteAsync(staged[i], commits[i], existing[i], held, cancellationToken);
            results[i] = new CommittedObject(stored.Object, stored.Replaced is not null) { ReplacedSize = stored.Replaced?.Size ?? 0 };
            // A version whose digest was not in its metadata may have a record, which now names nothing.
            if (stored.Replaced is { Sha256: null } replaced && replaced.ETag != stored.Object.ETag)
            {
                await digests.ForgetAsync(replaced.Name, replaced.ETag);
            }
        }

        return results;
    }

    /// <summary>Removes the current version if <paramref name="preconditions"/> hold, under the name's lease (RGW ignores If-Match on DeleteObject).</summary>
    public async ValueTask<StoredObject?> DeleteAsync(string name, Preconditions preconditions, CancellationToken cancellationToken)
    {
        if (bucket.KeyOf(name) is not { } key)
        {
            return null;
        }

        await using var held = await leases.AcquireAsync([name], cancellationToken);
        if (await CurrentAsync(name, key, cancellationToken) is not { } existing)
        {
            return null;
        }

        preconditions.Check(name, existing);
        await held.RenewIfNeededAsync(cancellationToken);
        await bucket.Client.DeleteObjectAsync(bucket.Name, key, cancellationToken);
        if (existing.Sha256 is null)
        {
            await digests.ForgetAsync(name, existing.ETag);
        }

        return existing;
    }

    /// <summary>Keeps a digest the core computed as that version's record, unless the name holds another version by now.</summary>
    public async ValueTask SaveDigestAsync(StoredObject version, byte[] sha256, CancellationToken cancellationToken)
    {
        try
        {
            if (bucket.KeyOf(version.Name) is { } key && await HeadAsync(key, cancellationToken) is { } head && S3ETags.Quoted(head.ETag) == version.ETag)
            {
                await digests.SaveAsync(version.Name, version.ETag, sha256, cancellationToken);
            }
        }
        catch (FileTransferException ex) when (S3Failures.IsUnavailable(ex))
        {
            // The digest saves a later request work; it is never a reason to fail this one.
            Log.DigestSaveFailed(logger, version.Name, version.ETag, ex);
        }
    }

    // Under the lease, after the preconditions held. A single PUT is conditional on exactly the
    // version the preconditions were checked against; if that fails, something wrote the key without
    // the lease (another program, or a lease that expired under a stalled writer): the version is read
    // and the preconditions checked again.
    private async Task<(StoredObject Object, StoredObject? Replaced)> CompleteAsync(
        S3StagedObject staged, PendingCommit commit, StoredObject? existing, LeaseSet held, CancellationToken cancellationToken)
    {
        for (var attempt = 0; ; attempt++)
        {
            await held.RenewIfNeededAsync(cancellationToken);
            var stored = staged.UploadId is null
                ? await PutAsync(staged, commit.Sha256, existing, cancellationToken)
                : await CompleteMultipartAsync(staged, commit.Sha256, cancellationToken);
            if (stored is not null)
            {
                return (stored, existing);
            }

            Log.ChangedOutsideLease(logger, staged.Key);
            existing = await CurrentAsync(staged.Name, staged.Key, cancellationToken);
            commit.Preconditions.Check(staged.Name, existing);
            if (attempt == 3)
            {
                throw Failures.Unavailable($"'{staged.Name}' keeps changing outside this server's writes; try again.");
            }
        }
    }

    /// <summary>One PutObject of the buffered bytes with their digest, conditional on <paramref name="existing"/>; null when that condition failed.</summary>
    private async Task<StoredObject?> PutAsync(S3StagedObject staged, byte[] sha256, StoredObject? existing, CancellationToken cancellationToken)
    {
        using var body = AsStream(staged.Buffered);
        var request = new PutObjectRequest { BucketName = bucket.Name, Key = staged.Key, InputStream = body, AutoCloseStream = false };
        request.Metadata.Add(S3Digests.MetadataName, Convert.ToHexStringLower(sha256));
        if (existing is null)
        {
            request.IfNoneMatch = "*";
        }
        else
        {
            request.IfMatch = S3ETags.Bare(existing.ETag); // RGW 16 matches If-Match on PutObject only unquoted
        }

        PutObjectResponse put;
        try
        {
            put = await bucket.Client.PutObjectAsync(request, cancellationToken);
        }
        catch (AmazonS3Exception ex) when (S3Failures.IsPreconditionFailed(ex))
        {
            return null;
        }

        staged.MarkCommitted();
        return await StoredAsync(staged, S3ETags.Quoted(put.ETag), sha256, cancellationToken);
    }

    /// <summary>
    /// Records the digest under the ETag the completion will give (computed from the parts' ETags),
    /// then completes: the version is never visible without its digest.
    /// </summary>
    private async Task<StoredObject> CompleteMultipartAsync(S3StagedObject staged, byte[] sha256, CancellationToken cancellationToken)
    {
        var uploadId = staged.UploadId!;
        var expected = staged.Parts.All(p => S3ETags.IsMd5(p.ETag)) ? S3ETags.OfMultipart([.. staged.Parts.Select(p => p.ETag)]) : null;
        if (expected is not null)
        {
            await digests.SaveAsync(staged.Name, expected, sha256, cancellationToken);
        }

        await bucket.Client.CompleteMultipartUploadAsync(
            new CompleteMultipartUploadRequest { BucketName = bucket.Name, Key = staged.Key, UploadId = uploadId, PartETags = [.. staged.Parts] },
            cancellationToken);
        Completed(uploadId);
        staged.MarkCommitted();

        // RGW 16 answers the completion with an empty ETag: the version is read back (under the lease it is ours).
        var stored = await StoredAsync(staged, expected, sha256, cancellationToken);
        if (stored.ETag != expected)
        {
            // A store that computes multipart ETags its own way: the record moves to the real one.
            await digests.SaveAsync(staged.Name, stored.ETag, sha256, cancellationToken);
            if (expected is not null)
            {
                await digests.ForgetAsync(staged.Name, expected);
            }
        }

        return stored;
    }

    // The committed version as later reads describe it: its time comes only from a HEAD. Should the
    // key hold no version by now (a delete outside the lease), ours is described from what we know.
    private async Task<StoredObject> StoredAsync(S3StagedObject staged, string? etag, byte[] sha256, CancellationToken cancellationToken)
    {
        if (await HeadAsync(staged.Key, cancellationToken) is { } head)
        {
            return Describe(staged.Name, head) with { Sha256 = sha256 };
        }

        var now = time.GetUtcNow();
        return new StoredObject(staged.Name, staged.Length, now.AddTicks(-(now.UtcTicks % TimeSpan.TicksPerSecond)), etag ?? "\"unknown\"", sha256);
    }

    /// <summary>The current version of <paramref name="name"/>, with its digest when its metadata carries one.</summary>
    private async Task<StoredObject?> CurrentAsync(string name, string key, CancellationToken cancellationToken) =>
        await HeadAsync(key, cancellationToken) is { } head ? Describe(name, head) : null;

    private async Task RefuseFolderConflictsAsync(string name, string key, CancellationToken cancellationToken)
    {
        var checks = new List<Task<bool>> { HasKeysBelowAsync(key, cancellationToken) };
        for (var slash = name.IndexOf('/', StringComparison.Ordinal); slash > 0; slash = name.IndexOf('/', slash + 1))
        {
            checks.Add(ExistsAsync(bucket.Prefix + name[..slash], cancellationToken));
        }

        var found = await Task.WhenAll(checks);
        if (found[0])
        {
            throw Failures.IsFolder(name);
        }

        if (found.Skip(1).Any(exists => exists))
        {
            throw Failures.FolderIsFile(name);
        }
    }

    private async Task<bool> HasKeysBelowAsync(string key, CancellationToken cancellationToken)
    {
        var below = await bucket.Client.ListObjectsV2Async(new ListObjectsV2Request { BucketName = bucket.Name, Prefix = key + "/", MaxKeys = 1 }, cancellationToken);
        return below.S3Objects is { Count: > 0 };
    }

    private async Task<bool> ExistsAsync(string key, CancellationToken cancellationToken) =>
        await HeadAsync(key, cancellationToken) is not null;

    private static FileTransferException TooLong() =>
        new(ErrorReason.InvalidFileName, $"The name is too long for the object store: with the configured prefix its key would pass {BucketClient.MaxKeyBytes} bytes of UTF-8.");
}
