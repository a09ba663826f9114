namespace FileTransfer.Core;

/// <summary>
/// One unfinished upload's reservation in every quota over its name: grown as bytes arrive while the
/// length is unknown, renewed while the upload goes on, and ended exactly once: committed (the stored
/// size counts instead, less the version it replaced) or released (aborted, cancelled, expired).
/// </summary>
public sealed class QuotaHold
{
    private readonly Quotas _quotas;
    private readonly List<QuotaRule> _rules;
    private readonly TimeSpan _lifetime;
    private DateTimeOffset _renewAt;
    private bool _ended;

    internal QuotaHold(Quotas quotas, string id, string name, List<QuotaRule> rules, TimeSpan lifetime, long reserved = 0)
    {
        _quotas = quotas;
        Id = id;
        Name = name;
        _rules = rules;
        _lifetime = lifetime;
        Reserved = reserved;
        _renewAt = reserved > 0 ? quotas.Now : DateTimeOffset.MinValue;
    }

    /// <summary>The upload's id in the records (<c>upload:…</c>, <c>session:…</c>).</summary>
    public string Id { get; }

    public string Name { get; }

    /// <summary>Bytes reserved in every quota over the name (at least).</summary>
    public long Reserved { get; private set; }

    /// <summary>True when <paramref name="bytes"/> received need more than is reserved, or the reservation is due for renewal.</summary>
    public bool Needs(long bytes) => bytes > Reserved || _quotas.Now >= _renewAt;

    /// <summary>
    /// Makes the reservation at least <paramref name="bytes"/> in every quota (with up to
    /// <paramref name="ahead"/> more where there is room, so that a growing upload writes its records
    /// seldom), and renews it. Refuses (<see cref="ErrorReason.QuotaExceeded"/>) when a quota has no room for
    /// <paramref name="bytes"/>, leaving every quota as it was.
    /// </summary>
    public async ValueTask EnsureAsync(long bytes, CancellationToken cancellationToken, long ahead = 0)
    {
        var expires = _quotas.Now + _lifetime;
        var before = new List<(QuotaRule Rule, QuotaReservation? Previous)>();
        var granted = long.MaxValue;
        try
        {
            foreach (var rule in _rules)
            {
                QuotaReservation? previous = null;
                long grant = 0;
                await _quotas.UpdateAsync(rule, record =>
                {
                    previous = record.Reservations.GetValueOrDefault(Id);
                    var others = record.UsedBytes - (previous?.Bytes ?? 0);
                    var otherFiles = record.UsedFiles - (previous?.Files ?? 0);
                    if (others + bytes > rule.MaxBytes || otherFiles + 1 > (rule.MaxFiles ?? long.MaxValue))
                    {
                        throw Exceeded(rule, record, bytes);
                    }

                    grant = Math.Max(bytes, Math.Min(bytes + ahead, rule.MaxBytes - others));
                    return With(record, new QuotaReservation(grant, 1, expires));
                }, cancellationToken);
                before.Add((rule, previous));
                granted = Math.Min(granted, grant);
            }
        }
        catch
        {
            // The quotas that took the larger reservation get the previous one back.
            foreach (var (rule, previous) in before)
            {
                await TryUpdateAsync(rule, record => previous is null ? Without(record) : With(record, previous));
            }

            throw;
        }

        Reserved = granted;
        _renewAt = _quotas.Now + _lifetime / 2;
    }

    /// <summary>The upload stored <paramref name="size"/> bytes, replacing <paramref name="replacedSize"/> bytes when it <paramref name="replaced"/> a file: they count instead of the reservation.</summary>
    public async ValueTask CommitAsync(long size, bool replaced, long replacedSize, CancellationToken cancellationToken)
    {
        if (_ended)
        {
            return;
        }

        _ended = true;
        foreach (var rule in _rules)
        {
            await TryUpdateAsync(rule, record => Without(record) with
            {
                Bytes = Math.Max(0, record.Bytes + size - (replaced ? replacedSize : 0)),
                Files = record.Files + (replaced ? 0 : 1),
            });
        }
    }

    /// <summary>The upload ended without storing anything: the reservation goes back.</summary>
    public async ValueTask ReleaseAsync()
    {
        if (_ended)
        {
            return;
        }

        _ended = true;
        foreach (var rule in _rules)
        {
            await TryUpdateAsync(rule, Without);
        }
    }

    // Not the request's token: a client that went away must not leave the quota held. A store that
    // fails is logged; the reservation lapses by itself.
    private async ValueTask TryUpdateAsync(QuotaRule rule, Func<QuotaRecord, QuotaRecord> change)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        try
        {
            await _quotas.UpdateAsync(rule, change, timeout.Token);
        }
        catch (Exception ex) when (ex is FileTransferException or IOException or OperationCanceledException)
        {
            _quotas.LogReleaseFailed(Id, ex);
        }
    }

    private QuotaRecord With(QuotaRecord record, QuotaReservation reservation) =>
        record with { Reservations = new(record.Reservations, StringComparer.Ordinal) { [Id] = reservation } };

    private QuotaRecord Without(QuotaRecord record)
    {
        if (!record.Reservations.ContainsKey(Id))
        {
            return record;
        }

        var reservations = new Dictionary<string, QuotaReservation>(record.Reservations, StringComparer.Ordinal);
        reservations.Remove(Id);
        return record with { Reservations = reservations };
    }

    private static FileTransferException Exceeded(QuotaRule rule, QuotaRecord record, long bytes)
    {
        var files = rule.MaxFiles is { } maxFiles ? $", {record.UsedFiles} of {maxFiles} files" : "";
        return new FileTransferException(
            ErrorReason.QuotaExceeded,
            $"The quota on '{rule.Folder}' has no room: {record.UsedBytes} of {rule.MaxBytes} bytes{files} are stored or reserved by unfinished uploads, and this upload needs {bytes} bytes. Nothing was stored.")
        {
            Quota = Quotas.Usage(rule, record),
        };
    }
}
