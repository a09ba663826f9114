using System.ComponentModel.DataAnnotations;

namespace FileTransfer.Server.Grpc;

/// <summary>How the gRPC FileService moves bytes, bound from the <c>Grpc</c> configuration section.</summary>
public sealed class GrpcTransferOptions
{
    public const string SectionName = "Grpc";

    /// <summary>Smallest DownloadFile chunk: the bottom of the sweep the issue measures (16 B).</summary>
    public const int MinChunkBytes = 16;

    /// <summary>Largest chunk a client may send in one UploadFile message.</summary>
    public const int MaxChunkBytes = 4 * 1024 * 1024;

    /// <summary>
    /// Bytes of file data in each DownloadFile chunk message (default 32 KiB; 16 B to 4 MiB).
    /// Clients keep gRPC's default 4 MiB receive limit, which a 4 MiB chunk plus its few bytes of
    /// framing just exceeds: above about 4 MiB - 16 B they must raise it. Sizes below 1 KiB cost
    /// many times the CPU per byte (benchmarks/RESULTS.md, chunk-size sweep); they are accepted so
    /// that the whole curve can be measured.
    /// </summary>
    [Range(MinChunkBytes, MaxChunkBytes)]
    public int ChunkSizeBytes { get; set; } = 32 * 1024;
}
