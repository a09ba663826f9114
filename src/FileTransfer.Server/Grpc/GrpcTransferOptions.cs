using System.ComponentModel.DataAnnotations;

namespace FileTransfer.Server.Grpc;

/// <summary>How the gRPC FileService moves bytes, bound from the <c>Grpc</c> configuration section.</summary>
public sealed class GrpcTransferOptions
{
    public const string SectionName = "Grpc";

    /// <summary>Largest chunk a client may send in one UploadFile message.</summary>
    public const int MaxChunkBytes = 4 * 1024 * 1024;

    /// <summary>
    /// Bytes of file data in each DownloadFile chunk message (default 32 KiB; 1 KiB to 4 MiB).
    /// Clients keep gRPC's default 4 MiB receive limit, which a 4 MiB chunk plus its few bytes of
    /// framing just exceeds: above about 4 MiB - 16 B they must raise it.
    /// </summary>
    [Range(1024, MaxChunkBytes)]
    public int ChunkSizeBytes { get; set; } = 32 * 1024;
}
