namespace FileTransfer.Server.Storage;

/// <summary>A file as both protocols describe it: the same name, size, type, time and ETag.</summary>
/// <param name="Name">Name relative to the root, '/' separated: what clients call it.</param>
/// <param name="FullPath">Absolute path under the root.</param>
/// <param name="Size">Size in bytes.</param>
/// <param name="ContentType">Media type from the extension.</param>
/// <param name="LastModified">Modification time.</param>
/// <param name="ETag">Strong entity tag, quoted (<c>"8df4...-3200000"</c>): see <see cref="EntityTags"/>.</param>
internal sealed record StoredFile(
    string Name,
    string FullPath,
    long Size,
    string ContentType,
    DateTimeOffset LastModified,
    string ETag);
