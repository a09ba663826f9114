using System.Collections.Concurrent;
using System.Globalization;
using System.Text;
using Amazon.S3;
using Amazon.S3.Model;
using FileTransfer.Core;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace FileTransfer.Storage.S3;

/// <summary>
/// Write leases on names, shared by every replica through the bucket: one small object per name
/// (<c>.ft-lease/..</c>), created with <c>If-None-Match: *</c>, which RGW honours on PutObject, so
/// that exactly one writer holds a name at a time. Every change of a name (a commit, a delete) holds
/// its lease while it reads the current version, checks the preconditions and makes its change:
/// that is what makes <c>If-Match</c> and <c>If-None-Match: *</c> atomic where the store ignores them
/// (RGW 16's CompleteMultipartUpload, every DeleteObject).
/// </summary>
/// <remarks>
/// A holder that crashes leaves its lease behind; it expires after <see cref="S3StorageOptions.LeaseDuration"/>
/// and the next writer takes it over with <c>If-Match</c> on the stale lease's ETag, so that of two
/// writers that both saw it expire only one gets it. Expiry is written by the holder's clock and read
/// by the others': replicas' clocks must agree to within <see cref="SafetyMargin"/>. A holder renews
/// its lease before each step that changes the store, and no step starts with less than the margin
/// left: the guarantee holds as long as one store request takes less than that (see docs/s3.md).
/// </remarks>
internal sealed partial class NameLeases(BucketClient bucket, IOptions<S3StorageOptions> options, TimeProvider time, ILogger<NameLeases> logger)
{
    private const string Area = "lease";
    private static readonly TimeSpan FirstRetry = TimeSpan.FromMilliseconds(10);
    private static readonly TimeSpan LongestRetry = TimeSpan.FromMilliseconds(250);

    // Which process wrote a lease: for people reading the bucket, not for the protocol.
    private readonly string _owner = Guid.NewGuid().ToString("N")[..12];

    // Leases this process gave back while the store failed, by key: released again once it answers,
    // or taken back by the next writer here (the same process), which then needs no waiting.
    private readonly ConcurrentDictionary<string, NameLease> _unreleased = new(StringComparer.Ordinal);

    public TimeSpan Duration => options.Value.LeaseDuration;

    /// <summary>A quarter of the lease: allowed clock skew between replicas, and the time left a holder never starts a step with.</summary>
    public TimeSpan SafetyMargin => Duration / 4;

    internal DateTimeOffset Now => time.GetUtcNow();

    /// <summary>
    /// Holds the leases of every name in <paramref name="names"/>, taken in key order (two writers of
    /// overlapping sets then cannot each wait for the other). Waits while another writer holds one,
    /// up to a lease's duration and its margin; then refuses with <see cref="ErrorReason.StorageUnavailable"/>.
    /// </summary>
    public async Task<LeaseSet> AcquireAsync(IEnumerable<string> names, CancellationToken cancellationToken)
    {
        var wanted = names.Distinct(StringComparer.Ordinal)
            .Select(name => (Name: name, Key: bucket.ReservedKeyFor(Area, name)))
            .OrderBy(lease => lease.Key, StringComparer.Ordinal)
            .ToList();
        var held = new LeaseSet(this);
        try
        {
            foreach (var (name, key) in wanted)
            {
                held.Add(await AcquireOneAsync(name, key, cancellationToken));
            }

            return held;
        }
        catch
        {
            await held.DisposeAsync();
            throw;
        }
    }

    private async Task<NameLease> AcquireOneAsync(string name, string key, CancellationToken cancellationToken)
    {
        var giveUp = Now + Duration + SafetyMargin;
        var delay = FirstRetry;
        while (true)
        {
            var now = Now;
            var (taken, heldByOther) = await TryTakeAsync(name, key, cancellationToken);
            if (taken is not null)
            {
                return taken;
            }

            if (!heldByOther)
            {
                continue; // released, or taken over by another, between our requests: try again at once
            }

            if (now >= giveUp)
            {
                throw Failures.Unavailable($"Another writer has been changing '{name}' for too long; try again.");
            }

            // Jittered, so that writers that collided do not collide again in step.
            await Task.Delay(delay * (0.5 + Random.Shared.NextDouble()), time, cancellationToken);
            delay = TimeSpan.FromTicks(Math.Min(delay.Ticks * 2, LongestRetry.Ticks));
        }
    }

    /// <summary>
    /// The lease of <paramref name="name"/> in its own <paramref name="area"/> (an upload session's,
    /// apart from the file names' leases), or null at once while another holder has it: never waits.
    /// </summary>
    public async Task<NameLease?> TryAcquireAsync(string area, string name, CancellationToken cancellationToken)
    {
        var key = bucket.ReservedKeyFor(area, name);
        for (var attempt = 0; attempt < 3; attempt++)
        {
            var (taken, heldByOther) = await TryTakeAsync(name, key, cancellationToken);
            if (taken is not null || heldByOther)
            {
                return taken;
            }
        }

        return null; // it keeps changing hands: as good as held
    }

    /// <summary>
    /// Keeps a long-held lease (an upload session's, for a whole request): renewed once a quarter of
    /// it has passed, even when it has run out, as long as nobody took it over meanwhile (its ETag is
    /// still ours). Every step that changes the store starts with three quarters of a lease left.
    /// Throws <see cref="ErrorReason.UploadBusy"/> when another holder has it.
    /// </summary>
    internal async Task KeepAsync(NameLease lease, CancellationToken cancellationToken)
    {
        if (!await TryRenewAsync(lease, refuseUnderMargin: false, cancellationToken))
        {
            throw Failures.UploadBusy();
        }
    }

    // One try: created, or taken over when expired, only if nobody else took it over first (the
    // stale lease's ETag must still be current). HeldByOther: a live lease of another holder.
    private async Task<(NameLease? Taken, bool HeldByOther)> TryTakeAsync(string name, string key, CancellationToken cancellationToken)
    {
        var now = Now;
        if (_unreleased.TryRemove(key, out var ours))
        {
            // Never released: renewed in place (If-Match on its ETag), unless another took it over meanwhile.
            string? renewed;
            try
            {
                renewed = await TryWriteAsync(key, name, now + Duration, ours.ETag, cancellationToken);
            }
            catch
            {
                _unreleased.TryAdd(key, ours);
                throw;
            }

            if (renewed is not null)
            {
                Log.LeaseTakenBack(logger, name);
                return (new NameLease(name, key, renewed, now + Duration), false);
            }
        }

        if (await TryWriteAsync(key, name, now + Duration, ifMatch: null, cancellationToken) is { } created)
        {
            return (new NameLease(name, key, created, now + Duration), false);
        }

        var current = await ReadAsync(key, cancellationToken);
        if (current is null)
        {
            return (null, false);
        }

        if (current.Value.Expires > now)
        {
            return (null, true);
        }

        if (await TryWriteAsync(key, name, now + Duration, current.Value.ETag, cancellationToken) is { } taken)
        {
            Log.LeaseTakenOver(logger, name);
            return (new NameLease(name, key, taken, now + Duration), false);
        }

        return (null, false);
    }

    /// <summary>
    /// Makes sure <paramref name="lease"/> has more than <see cref="SafetyMargin"/> left, renewing it
    /// (<c>If-Match</c> on its own ETag) once a quarter of it has passed. Throws when it was lost.
    /// </summary>
    internal async Task RenewIfNeededAsync(NameLease lease, CancellationToken cancellationToken)
    {
        if (!await TryRenewAsync(lease, refuseUnderMargin: true, cancellationToken))
        {
            throw Failures.Unavailable($"The write of '{lease.Name}' took too long and lost its lease; nothing more was changed. Try again.");
        }
    }

    // Renews the lease once a quarter of it has passed (If-Match on its own ETag). False, logged, when
    // it was lost: taken over, or (refuseUnderMargin) down to the margin, where another may have.
    private async Task<bool> TryRenewAsync(NameLease lease, bool refuseUnderMargin, CancellationToken cancellationToken)
    {
        var now = Now;
        if (lease.Expires - now > Duration - SafetyMargin)
        {
            return true;
        }

        if ((refuseUnderMargin && lease.Expires - now <= SafetyMargin)
            || await TryWriteAsync(lease.Key, lease.Name, now + Duration, lease.ETag, cancellationToken) is not { } renewed)
        {
            Log.LeaseLost(logger, lease.Name);
            return false;
        }

        lease.Renewed(renewed, now + Duration);
        return true;
    }

    /// <summary>
    /// Gives <paramref name="lease"/> back. Deleted while it surely is still ours (more than the margin
    /// left: nobody can have taken it over); otherwise marked expired with <c>If-Match</c> on its ETag,
    /// so that a lease someone else took over meanwhile is never removed under them.
    /// </summary>
    /// <remarks>
    /// A store that fails meanwhile gets the release again once it answers (<see cref="BucketClient.Cleanup"/>);
    /// until then the next writer of this process takes the lease back at once, and other replicas
    /// wait for the release or the lease's expiry.
    /// </remarks>
    /// <param name="lease">The lease.</param>
    /// <param name="tryNow">False when the store has just failed its holder: the release is only queued.</param>
    internal async Task ReleaseAsync(NameLease lease, bool tryNow = true)
    {
        if (tryNow)
        {
            try
            {
                await ReleaseNowAsync(lease);
                return;
            }
            catch (FileTransferException ex) when (S3Failures.IsUnavailable(ex))
            {
                Log.LeaseReleaseFailed(logger, lease.Name, ex);
            }
        }

        _unreleased[lease.Key] = lease;
        bucket.Cleanup.Add($"release of the write lease of {lease.Name}", async () =>
        {
            // Taken back meanwhile: that writer releases it.
            if (_unreleased.TryRemove(new KeyValuePair<string, NameLease>(lease.Key, lease)))
            {
                try
                {
                    await ReleaseNowAsync(lease);
                }
                catch (Exception failed) when (S3Failures.IsUnavailable(failed))
                {
                    _unreleased.TryAdd(lease.Key, lease);
                    throw;
                }
            }
        });
    }

    // Not the request's token: a client that went away must not leave the name locked.
    private async Task ReleaseNowAsync(NameLease lease)
    {
        if (lease.Expires - Now > SafetyMargin)
        {
            await bucket.Client.DeleteObjectAsync(bucket.Name, lease.Key, CancellationToken.None);
        }
        else if (await TryWriteAsync(lease.Key, lease.Name, DateTimeOffset.UnixEpoch, lease.ETag, CancellationToken.None) is null)
        {
            Log.LeaseLost(logger, lease.Name);
        }
    }

    /// <summary>Writes the lease: created when <paramref name="ifMatch"/> is null, else replacing that version. Null when the condition failed.</summary>
    private async Task<string?> TryWriteAsync(string key, string name, DateTimeOffset expires, string? ifMatch, CancellationToken cancellationToken)
    {
        var request = new PutObjectRequest
        {
            BucketName = bucket.Name,
            Key = key,
            ContentBody = string.Create(CultureInfo.InvariantCulture, $"{expires.ToUnixTimeMilliseconds()} {_owner} {name}\n"),
            ContentType = "text/plain; charset=utf-8",
        };
        return await bucket.TryPutAsync(request, ifMatch, cancellationToken);
    }

    /// <summary>The lease as stored: its ETag and expiry (an unreadable one counts as expired), or null when there is none.</summary>
    private async Task<(string ETag, DateTimeOffset Expires)?> ReadAsync(string key, CancellationToken cancellationToken)
    {
        try
        {
            using var response = await bucket.Client.GetObjectAsync(bucket.Name, key, cancellationToken);
            using var reader = new StreamReader(response.ResponseStream, Encoding.UTF8);
            var text = await reader.ReadToEndAsync(cancellationToken);
            var first = text.Split(' ', 2)[0];
            var expires = long.TryParse(first, NumberStyles.None, CultureInfo.InvariantCulture, out var ms) && ms >= 0
                ? DateTimeOffset.FromUnixTimeMilliseconds(Math.Min(ms, DateTimeOffset.MaxValue.ToUnixTimeMilliseconds()))
                : DateTimeOffset.UnixEpoch;
            return (S3ETags.Quoted(response.ETag), expires);
        }
        catch (AmazonS3Exception ex) when (S3Failures.IsNotFound(ex))
        {
            return null;
        }
    }
}

/// <summary>One held lease: its name, its object and the ETag that proves it is ours.</summary>
internal sealed class NameLease(string name, string key, string etag, DateTimeOffset expires)
{
    public string Name { get; } = name;

    public string Key { get; } = key;

    public string ETag { get; private set; } = etag;

    public DateTimeOffset Expires { get; private set; } = expires;

    public void Renewed(string etag, DateTimeOffset expires)
    {
        ETag = etag;
        Expires = expires;
    }
}

/// <summary>The leases one commit holds; disposing gives every one back.</summary>
internal sealed class LeaseSet(NameLeases leases) : IAsyncDisposable
{
    private readonly List<NameLease> _held = [];

    public void Add(NameLease lease) => _held.Add(lease);

    /// <summary>Before a step that changes the store: every lease still has more than the margin left.</summary>
    public async Task RenewIfNeededAsync(CancellationToken cancellationToken)
    {
        foreach (var lease in _held)
        {
            await leases.RenewIfNeededAsync(lease, cancellationToken);
        }
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var lease in _held)
        {
            await leases.ReleaseAsync(lease);
        }

        _held.Clear();
    }
}
