using System.Diagnostics;

namespace FileTransfer.Benchmarks.NaiveGrpc;

/// <summary>
/// The two figures the harness reads from the product's <c>/debug/runtime</c>, read the same way,
/// so that the naive service's allocations and peak memory sit in the same columns.
/// </summary>
internal sealed record RuntimeReading(long TotalAllocatedBytes, long PeakWorkingSetBytes)
{
    public static RuntimeReading Capture()
    {
        using var process = Process.GetCurrentProcess();
        return new(GC.GetTotalAllocatedBytes(precise: true), process.PeakWorkingSet64);
    }
}
