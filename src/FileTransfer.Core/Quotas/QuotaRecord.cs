namespace FileTransfer.Core;

/// <summary>
/// One folder's usage as its store keeps it (JSON, the format every server sharing the store reads):
/// the stored bytes and files, and each unfinished upload's reservation.
/// </summary>
public sealed record QuotaRecord
{
    /// <summary>The format; a record of another version is read as missing (and rebuilt by a scan).</summary>
    public int Version { get; init; } = 1;

    public long Bytes { get; init; }

    public long Files { get; init; }

    /// <summary>Reservations by upload id (<c>upload:…</c>, <c>session:…</c>).</summary>
    public Dictionary<string, QuotaReservation> Reservations { get; init; } = new(StringComparer.Ordinal);

    /// <summary>Stored plus reserved bytes.</summary>
    public long UsedBytes => Bytes + Reservations.Values.Sum(r => r.Bytes);

    /// <summary>Stored plus reserved files.</summary>
    public long UsedFiles => Files + Reservations.Values.Sum(r => r.Files);

    /// <summary>A copy without the reservations that expired by <paramref name="now"/> (their uploads ended without a word: a server died).</summary>
    public QuotaRecord WithoutExpired(DateTimeOffset now) =>
        Reservations.Values.All(r => r.ExpiresAt > now) ? this : this with
        {
            Reservations = Reservations.Where(r => r.Value.ExpiresAt > now).ToDictionary(StringComparer.Ordinal),
        };
}

/// <summary>What one unfinished upload holds of a folder's quota, until it ends or <see cref="ExpiresAt"/>.</summary>
public sealed record QuotaReservation(long Bytes, long Files, DateTimeOffset ExpiresAt);
