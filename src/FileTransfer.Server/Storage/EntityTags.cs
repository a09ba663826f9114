using Microsoft.Net.Http.Headers;

namespace FileTransfer.Server.Storage;

/// <summary>
/// Strong validators from size and modification time, as nginx and Apache derive them.
/// RFC 9110 8.8.3: a strong ETag must change whenever the bytes change; every replace through
/// this server is a new file with a new, strictly later modification time, so that holds.
/// </summary>
internal static class EntityTags
{
    public static EntityTagHeaderValue For(long size, DateTimeOffset lastModified) =>
        new($"\"{lastModified.UtcTicks:x}-{size:x}\"", isWeak: false);
}
