using System.Text.Json;

namespace FileTransfer.Core;

/// <summary>
/// One folder's usage as its store keeps it (JSON, the format every server sharing the store reads):
/// the stored bytes and files, and each unfinished upload's reservation. A member with an initial
/// value is settable, not init-only, for the reason <see cref="UploadSessionRecord"/> gives.
/// </summary>
public sealed record QuotaRecord
{
    /// <summary>The format; a record of another version is read as missing (and rebuilt by a scan).</summary>
    public int Version { get; set; } = 1;

    public long Bytes { get; init; }

    public long Files { get; init; }

    /// <summary>Reservations by upload id (<c>upload:…</c>, <c>session:…</c>).</summary>
    public Dictionary<string, QuotaReservation> Reservations { get; set; } = new(StringComparer.Ordinal);

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

    /// <summary>The record as UTF-8 JSON.</summary>
    public byte[] ToJson() => JsonSerializer.SerializeToUtf8Bytes(this, CoreJson.Default.QuotaRecord);

    /// <summary>The record in <paramref name="json"/>, or null when it is not one of ours (it does not parse, or is of another version).</summary>
    public static QuotaRecord? Parse(ReadOnlySpan<byte> json)
    {
        try
        {
            return Ours(JsonSerializer.Deserialize(json, CoreJson.Default.QuotaRecord));
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <inheritdoc cref="Parse(ReadOnlySpan{byte})"/>
    public static async ValueTask<QuotaRecord?> ParseAsync(Stream json, CancellationToken cancellationToken)
    {
        try
        {
            return Ours(await JsonSerializer.DeserializeAsync(json, CoreJson.Default.QuotaRecord, cancellationToken));
        }
        catch (JsonException)
        {
            return null;
        }
    }

    private static QuotaRecord? Ours(QuotaRecord? record) => record is { Version: 1 } ? record : null;
}

/// <summary>What one unfinished upload holds of a folder's quota, until it ends or <see cref="ExpiresAt"/>.</summary>
public sealed record QuotaReservation(long Bytes, long Files, DateTimeOffset ExpiresAt);
