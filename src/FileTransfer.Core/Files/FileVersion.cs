namespace FileTransfer.Core;

/// <summary>A stored version as both protocols describe it: the same name, size, type, time, ETag and digest.</summary>
/// <param name="Object">The version as the backend knows it.</param>
/// <param name="ContentType">Media type from the name's extension (<see cref="IContentTypeMap"/>).</param>
public sealed record FileVersion(StoredObject Object, string ContentType)
{
    public string Name => Object.Name;

    public long Size => Object.Size;

    public DateTimeOffset LastModified => Object.LastModified;

    /// <summary>Strong entity tag, quoted: REST sends it in <c>ETag</c>, gRPC in <c>FileMetadata.etag</c>.</summary>
    public string ETag => Object.ETag;
}
