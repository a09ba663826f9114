namespace FileTransfer.Server.Hosting;

/// <summary>
/// The process's descriptor limit (RLIMIT_NOFILE) and how many descriptors it already uses, measured
/// once, and the connection cap they leave room for. Every accepted socket is a descriptor, and so
/// is every file a connection downloads or uploads; at the limit accept(2) fails with EMFILE, and so
/// does everything else that needs one, the runtime's own pipes and /proc reads included (a server
/// started under <c>ulimit -n 1024</c> and sent 1,300 idle connections printed "Out of memory." and
/// exited). So the cap is half of what is free after a reserve: one half for sockets, one for the
/// files they serve, the reserve for the runtime, assemblies loaded later, logs and the storage walk.
/// Linux only (/proc); elsewhere nothing is derived and only a configured cap applies.
/// </summary>
internal sealed class DescriptorBudget
{
    /// <summary>Descriptors kept for the runtime and the rest of the process (each loaded assembly holds two).</summary>
    internal const int Reserve = 128;

    /// <summary>The smallest cap derived, however low the limit: a server that accepts nothing is no safer.</summary>
    internal const long MinimumCap = 16;

    public DescriptorBudget()
        : this(ReadLimit(), CountOpen())
    {
    }

    internal DescriptorBudget(long? limit, int? open)
    {
        Limit = limit;
        OpenAtStart = open;
        DerivedCap = limit is { } l && open is { } o ? Math.Max(MinimumCap, (l - o - Reserve) / 2) : null;
    }

    /// <summary>The soft RLIMIT_NOFILE (.NET raises it to the hard limit at start); null if unlimited or unknown.</summary>
    public long? Limit { get; }

    /// <summary>Descriptors open when the budget was measured; null if unknown.</summary>
    public int? OpenAtStart { get; }

    /// <summary>The connection cap this budget allows; null when the limit is unknown or unlimited.</summary>
    public long? DerivedCap { get; }

    /// <summary>Reads the soft limit from the "Max open files" line of /proc/self/limits.</summary>
    internal static long? ParseLimit(string procLimits)
    {
        foreach (var line in procLimits.Split('\n'))
        {
            if (!line.StartsWith("Max open files", StringComparison.Ordinal))
            {
                continue;
            }

            // "Max open files            1024                 524288               files"
            var fields = line["Max open files".Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            return fields.Length > 0 && long.TryParse(fields[0], out var soft) ? soft : null;
        }

        return null;
    }

    private static long? ReadLimit() =>
        OperatingSystem.IsLinux() && File.Exists("/proc/self/limits") ? ParseLimit(File.ReadAllText("/proc/self/limits")) : null;

    private static int? CountOpen() =>
        OperatingSystem.IsLinux() && Directory.Exists("/proc/self/fd") ? Directory.EnumerateFileSystemEntries("/proc/self/fd").Count() : null;
}
