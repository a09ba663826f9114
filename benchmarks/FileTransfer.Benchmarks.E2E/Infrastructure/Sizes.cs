namespace FileTransfer.Benchmarks.E2E.Infrastructure;

/// <summary>Byte counts as the report writes them.</summary>
internal static class Sizes
{
    public static string Of(long bytes) => Cases.BenchContext.Size(bytes);
}
