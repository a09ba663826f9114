using System.Numerics;

namespace FileTransfer.Storage.S3;

/// <summary>
/// How an upload is cut into multipart parts. S3 takes at most 10,000 parts of at least 5 MiB (but
/// the last), so the largest file allowed (<c>Storage:MaxFileSizeBytes</c>) decides the part size:
/// the smallest power of two that is at least 5 MiB and fits that file in 10,000 parts (8 MiB up to
/// 78 GiB, 16 MiB for the default 100 GiB, 1 GiB for S3's largest object). A power of two, because
/// part buffers come from the shared array pool, whose buckets are powers of two: nothing rented is wasted.
/// </summary>
internal static class PartSizes
{
    public const int MinPartBytes = 5 * 1024 * 1024;
    public const int MaxParts = 10_000;

    public static int For(long maxFileBytes)
    {
        var needed = Math.Max(MinPartBytes, (maxFileBytes + MaxParts - 1) / MaxParts);
        return (int)BitOperations.RoundUpToPowerOf2((ulong)needed);
    }
}
