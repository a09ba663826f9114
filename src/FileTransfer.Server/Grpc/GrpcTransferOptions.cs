using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Grpc;

/// <summary>How the gRPC FileService moves bytes, bound from the <c>Grpc</c> configuration section.</summary>
public sealed class GrpcTransferOptions
{
    public const string SectionName = "Grpc";

    /// <summary>
    /// Smallest DownloadFile chunk (1 KiB, the contract's lower bound). Below it the server's CPU per
    /// GiB about doubles with every halving (benchmarks/RESULTS.md, chunk-size sweep).
    /// </summary>
    public const int MinChunkBytes = 1024;

    /// <summary>Largest chunk a client may send in one UploadFile message.</summary>
    public const int MaxChunkBytes = 4 * 1024 * 1024;

    /// <summary>
    /// Bytes of file data in each DownloadFile chunk message (default 32 KiB; 1 KiB to 4 MiB,
    /// checked at start). Clients keep gRPC's default 4 MiB receive limit, which a 4 MiB chunk plus
    /// its few bytes of framing just exceeds: above about 4 MiB - 16 B they must raise it.
    /// </summary>
    [Range(MinChunkBytes, MaxChunkBytes)]
    public int ChunkSizeBytes { get; set; } = 32 * 1024;
}

/// <summary>
/// Checks the attributes of <see cref="GrpcTransferOptions"/> with code generated at build time, not by reflection
/// at start as ValidateDataAnnotations would (docs/performance-notes.md, "Loading less at start").
/// </summary>
[OptionsValidator]
internal sealed partial class GrpcTransferOptionsAttributes : IValidateOptions<GrpcTransferOptions>;
