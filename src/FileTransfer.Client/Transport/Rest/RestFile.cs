using System.Text.Json;
using System.Text.Json.Serialization;

namespace FileTransfer.Client.Transport.Rest;

/// <summary>The REST file description: <c>{ name, size, contentType, lastModified, eTag, sha256? }</c>.</summary>
internal sealed record RestFile(string Name, long Size, string? ContentType, DateTimeOffset? LastModified, string? ETag, string? Sha256)
{
    public RemoteFileInfo ToInfo(Version version) => new()
    {
        Name = Name,
        Size = Size,
        ContentType = ContentType,
        LastModified = LastModified,
        ETag = ETag,
        Sha256 = Sha256 is { Length: 64 } hex ? Convert.FromHexString(hex) : null,
        HttpVersion = version,
    };
}

/// <summary>The REST API's JSON, generated at build time so that the library serves Native AOT programs (the CLI) without reflection.</summary>
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(RestFile))]
internal sealed partial class RestJson : JsonSerializerContext;
