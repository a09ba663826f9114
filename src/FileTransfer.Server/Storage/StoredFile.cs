using Microsoft.Net.Http.Headers;

namespace FileTransfer.Server.Storage;

/// <summary>A file as both protocols describe it: the same name, size, type, time and ETag.</summary>
internal sealed record StoredFile(
    string Name,
    string FullPath,
    long Size,
    string ContentType,
    DateTimeOffset LastModified,
    EntityTagHeaderValue ETag);
