using FileTransfer.Core;
using FileTransfer.Server.Protocol;

namespace FileTransfer.Server.Rest;

/// <summary>A file as stored by an upload.</summary>
/// <param name="Name">Path relative to the storage root, '/' separated.</param>
/// <param name="Size">Size in bytes.</param>
/// <param name="ContentType">Media type derived from the extension.</param>
/// <param name="LastModified">Modification time of the stored version (UTC).</param>
/// <param name="ETag">Strong entity tag of the stored version; use it in If-Match / If-Range.</param>
/// <param name="Sha256">SHA-256 of the stored bytes, lowercase hex, computed while they streamed.</param>
public sealed record UploadedFile(string Name, long Size, string ContentType, DateTimeOffset LastModified, string ETag, string Sha256)
{
    internal static UploadedFile From(UploadResult result) =>
        new(result.File.Name, result.File.Size, result.File.ContentType, result.File.LastModified, result.File.ETag, Convert.ToHexStringLower(result.Sha256));

    internal static string LocationOf(string name) =>
        "/" + Routes.Files + "/" + string.Join('/', name.Split('/').Select(Uri.EscapeDataString));
}
