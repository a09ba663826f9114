using FileTransfer.Core;
using FileTransfer.Protos.V1;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;

namespace FileTransfer.Server.Grpc;

/// <summary>A stored version as the contract's <see cref="FileMetadata"/>: the same values REST sends in its headers and JSON.</summary>
internal static class ProtoFiles
{
    /// <param name="file">The version, with the ETag REST sends in <c>ETag</c>.</param>
    /// <param name="sha256">The digest REST sends in <c>Repr-Digest</c>; null where it is not computed (listings).</param>
    public static FileMetadata Metadata(FileVersion file, byte[]? sha256) => new()
    {
        FileName = file.Name,
        ContentType = file.ContentType,
        Size = file.Size,
        LastModified = Timestamp.FromDateTimeOffset(file.LastModified),
        Etag = file.ETag,
        Sha256 = sha256 is null ? ByteString.Empty : ByteString.CopyFrom(sha256),
    };
}
