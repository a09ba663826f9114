using FileTransfer.Core;

namespace FileTransfer.Server.Rest;

/// <summary>A stored file as the REST API lists and returns it.</summary>
/// <param name="Name">Path relative to the storage root, '/' separated; use it in <c>api/files/{name}</c>.</param>
/// <param name="Size">Size in bytes.</param>
/// <param name="ContentType">Media type derived from the extension.</param>
/// <param name="LastModified">Last modification time (UTC).</param>
/// <param name="ETag">Strong entity tag, the value of the <c>ETag</c> header.</param>
public sealed record FileDescription(string Name, long Size, string ContentType, DateTimeOffset LastModified, string ETag)
{
    internal static FileDescription From(FileVersion file) =>
        new(file.Name, file.Size, file.ContentType, file.LastModified, file.ETag);
}
