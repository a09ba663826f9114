using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core;

/// <summary>
/// Quotas on folders (<see cref="QuotaOptions"/>), once for every upload path: an upload reserves its
/// declared length (or, while the length is unknown, its bytes as they arrive) in every quota over
/// its name before it stores anything, and gives the reservation back when it ends: committed (the
/// stored size counts, less the version it replaced), aborted, cancelled or expired. Of two uploads
/// that together would pass a quota, the second to reserve is refused
/// (<see cref="ErrorReason.QuotaExceeded"/>). Each quota's record lives in the backend's
/// <see cref="IQuotaStore"/>, changed atomically, and is rebuilt by a scan when it is missing.
/// </summary>
public sealed partial class Quotas
{
    /// <summary>How much more an upload of unknown length reserves at a time (never more than is left).</summary>
    public const long GrowthStep = 4L * 1024 * 1024;

    private readonly IStorageBackend _backend;
    private readonly IQuotaStore? _store;
    private readonly IUploadSessionStore? _sessions;
    private readonly QuotaRule[] _rules;
    private readonly TimeProvider _time;
    private readonly ILogger<Quotas> _logger;

    public Quotas(IStorageBackend backend, IQuotaStore? store, IUploadSessionStore? sessions, IOptions<QuotaOptions> options, TimeProvider time, ILogger<Quotas> logger)
    {
        _backend = backend;
        _store = store;
        _sessions = sessions;
        _rules = [.. options.Value];
        _time = time;
        _logger = logger;
        if (_rules.Length > 0 && store is null)
        {
            throw new InvalidOperationException("Quotas are configured, but the storage backend in use keeps no quota records.");
        }
    }

    /// <summary>True when at least one quota is configured.</summary>
    public bool IsEnabled => _rules.Length > 0;

    internal DateTimeOffset Now => _time.GetUtcNow();

    private IQuotaStore Store => _store!;

    /// <summary>
    /// Reserves <paramref name="bytes"/> and one file for upload <paramref name="id"/> of
    /// <paramref name="name"/> in every quota over it, for <paramref name="lifetime"/> (renewed while
    /// the upload goes on). Null when no quota covers the name. Refuses (<see cref="ErrorReason.QuotaExceeded"/>)
    /// when one has no room, holding nothing then.
    /// </summary>
    public async ValueTask<QuotaHold?> ReserveAsync(string id, string name, long bytes, TimeSpan lifetime, CancellationToken cancellationToken, long ahead = 0)
    {
        var rules = RulesOver(name);
        if (rules.Count == 0)
        {
            return null;
        }

        var hold = new QuotaHold(this, id, name, rules, lifetime);
        await hold.EnsureAsync(bytes, cancellationToken, ahead);
        return hold;
    }

    /// <summary>The hold of an upload that reserved before (a session continued, maybe by another server); null when no quota covers the name.</summary>
    public QuotaHold? Resume(string id, string name, long reservedAtLeast, TimeSpan lifetime)
    {
        var rules = RulesOver(name);
        return rules.Count == 0 ? null : new QuotaHold(this, id, name, rules, lifetime, reservedAtLeast);
    }

    /// <summary>A file of <paramref name="size"/> bytes was deleted: every quota over it counts it no more.</summary>
    public async ValueTask DeletedAsync(string name, long size, CancellationToken cancellationToken)
    {
        foreach (var rule in RulesOver(name))
        {
            await UpdateAsync(rule, record => record with { Bytes = Math.Max(0, record.Bytes - size), Files = Math.Max(0, record.Files - 1) }, cancellationToken);
        }
    }

    /// <summary>The usage of the quota on <paramref name="path"/>, for a caller that may read that folder.</summary>
    public async ValueTask<QuotaUsage> UsageAsync(Caller caller, string? path, CancellationToken cancellationToken)
    {
        var folder = Grants.Normalize(path) ?? throw new FileTransferException(ErrorReason.InvalidFileName, $"'{path}' is not a folder a client could name.");
        if (folder.Length > 0)
        {
            FileNames.Validate(folder.TrimEnd('/'));
        }

        AccessPolicy.Demand(caller, FileOperation.Read, folder);
        var rule = Array.Find(_rules, r => r.Folder == folder)
            ?? throw new FileTransferException(ErrorReason.FileNotFound, $"No quota is configured on '{folder}'.");
        var record = await UpdateAsync(rule, record => record, cancellationToken);
        return Usage(rule, record);
    }

    internal async ValueTask<QuotaRecord> UpdateAsync(QuotaRule rule, Func<QuotaRecord, QuotaRecord> change, CancellationToken cancellationToken)
    {
        var now = Now;
        for (var attempt = 0; ; attempt++)
        {
            try
            {
                return await Store.UpdateAsync(rule.Folder, record => change((record ?? throw new MissingRecord()).WithoutExpired(now)), cancellationToken);
            }
            catch (MissingRecord) when (attempt == 0)
            {
                var scanned = await ScanAsync(rule.Folder, cancellationToken);
                await Store.UpdateAsync(rule.Folder, record => record ?? scanned, cancellationToken);
            }
        }
    }

    internal static QuotaUsage Usage(QuotaRule rule, QuotaRecord record) =>
        new(rule.Folder, record.UsedBytes, record.UsedFiles, rule.MaxBytes, rule.MaxFiles);

    internal void LogReleaseFailed(string id, Exception exception) => LogReleaseFailure(_logger, id, exception);

    private List<QuotaRule> RulesOver(string name)
    {
        var rules = new List<QuotaRule>();
        foreach (var rule in _rules)
        {
            if (name.StartsWith(rule.Folder, StringComparison.Ordinal))
            {
                rules.Add(rule);
            }
        }

        // One order for every upload: two that reserve in nested quotas meet in the same order.
        rules.Sort((a, b) => NameOrder.Compare(a.Folder, b.Folder));
        return rules;
    }

    // The record from what the store holds: every file below the folder, and every unfinished
    // session for a name below it (a plain upload dies with its server, a session does not).
    private async ValueTask<QuotaRecord> ScanAsync(string folder, CancellationToken cancellationToken)
    {
        long bytes = 0, files = 0;
        string? cursor = null;
        do
        {
            var page = await _backend.ListAsync(new ListRequest(folder, cursor, ListQuery.MaxPageSize, ListQuery.MaxNameBytesPerPage), cancellationToken);
            bytes += page.Objects.Sum(o => o.Size);
            files += page.Objects.Count;
            cursor = page.NextCursor;
        }
        while (cursor is not null);

        var reservations = new Dictionary<string, QuotaReservation>(StringComparer.Ordinal);
        if (_sessions is not null)
        {
            await foreach (var session in _sessions.ListAsync(cancellationToken))
            {
                if (!session.IsComplete && session.ExpiresAt > Now && session.Name.StartsWith(folder, StringComparison.Ordinal))
                {
                    reservations[UploadSessions.QuotaId(session.Id)] = new QuotaReservation(Math.Max(session.Length ?? 0, session.Offset), 1, session.ExpiresAt + UploadSessions.QuotaSlack);
                }
            }
        }

        LogRebuilt(_logger, folder, bytes, files, reservations.Count);
        return new QuotaRecord { Bytes = bytes, Files = files, Reservations = reservations };
    }

    private sealed class MissingRecord : Exception
    {
    }

    [LoggerMessage(EventId = 240, Level = LogLevel.Information, Message = "Quota record of {Folder} rebuilt by a scan: {Bytes} bytes in {Files} files, {Sessions} unfinished sessions")]
    private static partial void LogRebuilt(ILogger logger, string folder, long bytes, long files, int sessions);

    [LoggerMessage(EventId = 241, Level = LogLevel.Warning, Message = "Could not give back the quota reservation of {UploadId}; it lapses by itself")]
    private static partial void LogReleaseFailure(ILogger logger, string uploadId, Exception exception);
}
