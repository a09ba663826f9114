using System.Diagnostics;

namespace FileTransfer.Server.Diagnostics;

/// <summary>One reading of the process; byte counts are cumulative or current as named.</summary>
/// <param name="TotalAllocatedBytes">Every managed byte allocated since the process started (precise).</param>
/// <param name="WorkingSetBytes">Resident memory now.</param>
/// <param name="PeakWorkingSetBytes">Highest resident memory (Linux: VmHWM, which writing 5 to /proc/PID/clear_refs resets).</param>
/// <param name="GcHeapSizeBytes">Managed heap size after the last collection.</param>
/// <param name="Gen0Collections">Collections of generation 0 since start.</param>
/// <param name="Gen1Collections">Collections of generation 1 since start.</param>
/// <param name="Gen2Collections">Collections of generation 2 since start.</param>
/// <param name="CpuTimeMilliseconds">User plus kernel CPU time the process has used.</param>
internal sealed record RuntimeSnapshot(
    long TotalAllocatedBytes,
    long WorkingSetBytes,
    long PeakWorkingSetBytes,
    long GcHeapSizeBytes,
    int Gen0Collections,
    int Gen1Collections,
    int Gen2Collections,
    double CpuTimeMilliseconds)
{
    public static RuntimeSnapshot Capture()
    {
        using var process = Process.GetCurrentProcess();
        return new(
            GC.GetTotalAllocatedBytes(precise: true),
            process.WorkingSet64,
            process.PeakWorkingSet64,
            GC.GetGCMemoryInfo().HeapSizeBytes,
            GC.CollectionCount(0),
            GC.CollectionCount(1),
            GC.CollectionCount(2),
            Environment.CpuUsage.TotalTime.TotalMilliseconds);
    }
}
