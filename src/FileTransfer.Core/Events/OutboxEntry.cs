using System.Buffers;
using System.Globalization;
using System.Text.Json;

namespace FileTransfer.Core;

/// <summary>
/// Events one webhook still has to receive, as the outbox keeps them: <c>outbox/WWW/DUE-FIRSTID</c>
/// (the webhook's index, when the next try is due in ticks, the first event's id), so that a listing
/// in key order finds the due entries first. A process delivering an entry holds its lease
/// (<see cref="Owner"/> until <see cref="LeaseUntil"/>); nobody else tries it meanwhile.
/// </summary>
internal sealed record OutboxEntry(int Webhook, IReadOnlyList<FileEvent> Events)
{
    public const string Prefix = "outbox/";

    public int Attempts { get; init; }

    public DateTimeOffset Due { get; init; }

    public string? Owner { get; init; }

    public DateTimeOffset LeaseUntil { get; init; }

    /// <summary>Where it is stored (null while it is not).</summary>
    public string? Key { get; init; }

    /// <summary>The stored version, for conditional updates.</summary>
    public string? Version { get; init; }

    public static string FolderOf(int webhook) => string.Create(CultureInfo.InvariantCulture, $"{Prefix}{webhook:D3}/");

    public string KeyFor() => string.Create(CultureInfo.InvariantCulture, $"{FolderOf(Webhook)}{Due.UtcTicks:D19}-{Events[0].Id}");

    /// <summary>When the entry under <paramref name="key"/> is due (from the key alone), or null for a key that is not an entry's.</summary>
    public static DateTimeOffset? DueOf(string key)
    {
        var name = key[(key.LastIndexOf('/') + 1)..];
        return name.Length > 19 && long.TryParse(name.AsSpan(0, 19), NumberStyles.None, CultureInfo.InvariantCulture, out var ticks) && ticks <= DateTimeOffset.MaxValue.UtcTicks
            ? new DateTimeOffset(ticks, TimeSpan.Zero)
            : null;
    }

    public byte[] ToJson()
    {
        var buffer = new ArrayBufferWriter<byte>(512);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteNumber("webhook", Webhook);
            writer.WriteNumber("attempts", Attempts);
            writer.WriteString("due", Due.UtcDateTime);
            if (Owner is { } owner)
            {
                writer.WriteString("owner", owner);
                writer.WriteString("leaseUntil", LeaseUntil.UtcDateTime);
            }

            writer.WriteStartArray("events");
            foreach (var e in Events)
            {
                FileEventJson.Write(writer, e);
            }

            writer.WriteEndArray();
            writer.WriteEndObject();
        }

        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>The entry stored under <paramref name="key"/>, or null when it is not one.</summary>
    public static OutboxEntry? Parse(string key, EventStoreObject stored)
    {
        try
        {
            using var document = JsonDocument.Parse(stored.Bytes);
            var root = document.RootElement;
            return new OutboxEntry(root.GetProperty("webhook").GetInt32(), [.. root.GetProperty("events").EnumerateArray().Select(FileEventJson.Read)])
            {
                Attempts = root.GetProperty("attempts").GetInt32(),
                Due = new DateTimeOffset(root.GetProperty("due").GetDateTime().ToUniversalTime(), TimeSpan.Zero),
                Owner = root.TryGetProperty("owner", out var owner) ? owner.GetString() : null,
                LeaseUntil = root.TryGetProperty("leaseUntil", out var lease) ? new DateTimeOffset(lease.GetDateTime().ToUniversalTime(), TimeSpan.Zero) : default,
                Key = key,
                Version = stored.Version,
            };
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException or FormatException)
        {
            return null;
        }
    }
}
