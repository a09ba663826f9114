using System.Buffers;
using System.Text.Json;

namespace FileTransfer.Core;

/// <summary>
/// The one JSON form of an event: webhook bodies, hook bodies, <c>GET api/events</c> data and the
/// journal all carry it (docs/events.md). Members with no value are left out.
/// </summary>
public static class FileEventJson
{
    /// <summary>The event as a UTF-8 JSON object.</summary>
    public static byte[] ToUtf8(FileEvent e)
    {
        var buffer = new ArrayBufferWriter<byte>(384);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            Write(writer, e);
        }

        return buffer.WrittenSpan.ToArray();
    }

    public static void Write(Utf8JsonWriter writer, FileEvent e)
    {
        writer.WriteStartObject();
        writer.WriteString("id", e.Id);
        writer.WriteString("type", e.Type);
        writer.WriteString("time", e.Time.UtcDateTime);
        writer.WriteString("name", e.Name);
        if (e.Size is { } size)
        {
            writer.WriteNumber("size", size);
        }

        if (e.ETag is { } etag)
        {
            writer.WriteString("etag", etag);
        }

        if (e.Sha256 is { } sha256)
        {
            writer.WriteString("sha256", Convert.ToHexStringLower(sha256));
        }

        if (e.Protocol is { } protocol)
        {
            writer.WriteString("protocol", protocol);
        }

        writer.WriteString("caller", e.Caller);
        writer.WriteString("replica", e.Replica);
        if (e.UploadId is { } uploadId)
        {
            writer.WriteString("uploadId", uploadId);
        }

        writer.WriteEndObject();
    }

    /// <summary>The event in <paramref name="element"/>, as <see cref="Write"/> wrote it.</summary>
    public static FileEvent Read(JsonElement element) => new()
    {
        Id = element.GetProperty("id").GetString()!,
        Type = element.GetProperty("type").GetString()!,
        Time = new DateTimeOffset(element.GetProperty("time").GetDateTime().ToUniversalTime(), TimeSpan.Zero),
        Name = element.GetProperty("name").GetString()!,
        Size = element.TryGetProperty("size", out var size) ? size.GetInt64() : null,
        ETag = element.TryGetProperty("etag", out var etag) ? etag.GetString() : null,
        Sha256 = element.TryGetProperty("sha256", out var sha256) ? Convert.FromHexString(sha256.GetString()!) : null,
        Protocol = element.TryGetProperty("protocol", out var protocol) ? protocol.GetString() : null,
        Caller = element.GetProperty("caller").GetString()!,
        Replica = element.GetProperty("replica").GetString()!,
        UploadId = element.TryGetProperty("uploadId", out var uploadId) ? uploadId.GetString() : null,
    };
}
