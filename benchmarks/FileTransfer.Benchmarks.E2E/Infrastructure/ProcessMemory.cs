using System.Globalization;

namespace FileTransfer.Benchmarks.E2E.Infrastructure;

/// <summary>
/// Peak resident memory and CPU time of a process tree from /proc, measured the same way for
/// our server and for nginx (master plus workers). Linux only, like the rest of the harness.
/// </summary>
internal static class ProcessMemory
{
    /// <summary>The process and every descendant alive now.</summary>
    public static IReadOnlyList<int> Tree(int root)
    {
        var parents = new Dictionary<int, int>();
        foreach (var dir in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(dir), out var pid) && TryReadStat(pid) is { } stat)
            {
                parents[pid] = int.Parse(stat[1], CultureInfo.InvariantCulture);
            }
        }

        var tree = new List<int> { root };
        for (var i = 0; i < tree.Count; i++)
        {
            tree.AddRange(parents.Where(p => p.Value == tree[i]).Select(p => p.Key));
        }

        return tree;
    }

    /// <summary>Resets VmHWM to the current RSS (proc(5), clear_refs value 5).</summary>
    public static void ResetPeak(IEnumerable<int> pids)
    {
        foreach (var pid in pids)
        {
            File.WriteAllText($"/proc/{pid}/clear_refs", "5");
        }
    }

    /// <summary>Sum of VmRSS over the processes, in bytes.</summary>
    public static long CurrentBytes(IEnumerable<int> pids) => pids.Sum(pid => StatusKilobytes(pid, "VmRSS:") * 1024);

    /// <summary>Sum of VmHWM over the processes, in bytes.</summary>
    public static long PeakBytes(IEnumerable<int> pids) => pids.Sum(pid => StatusKilobytes(pid, "VmHWM:") * 1024);

    /// <summary>User plus system CPU time used so far, in milliseconds.</summary>
    public static double CpuMilliseconds(IEnumerable<int> pids)
    {
        // Clock ticks are USER_HZ, 100 per second on every Linux ABI the harness runs on.
        const double MillisecondsPerTick = 10;
        return pids.Sum(pid => TryReadStat(pid) is { } stat
            ? (long.Parse(stat[11], CultureInfo.InvariantCulture) + long.Parse(stat[12], CultureInfo.InvariantCulture)) * MillisecondsPerTick
            : 0);
    }

    private static long StatusKilobytes(int pid, string field)
    {
        foreach (var line in File.ReadLines($"/proc/{pid}/status"))
        {
            if (line.StartsWith(field, StringComparison.Ordinal))
            {
                return long.Parse(line[field.Length..].Trim().Split(' ')[0], CultureInfo.InvariantCulture);
            }
        }

        return 0;
    }

    /// <summary>Fields of /proc/PID/stat after the command name: [0] state, [1] ppid, ... [11] utime, [12] stime.</summary>
    private static string[]? TryReadStat(int pid)
    {
        try
        {
            var text = File.ReadAllText($"/proc/{pid}/stat");
            return text[(text.LastIndexOf(')') + 2)..].Split(' ');
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }
}
