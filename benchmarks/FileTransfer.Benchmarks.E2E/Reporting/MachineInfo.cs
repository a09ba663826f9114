using FileTransfer.Benchmarks.E2E.Infrastructure;

namespace FileTransfer.Benchmarks.E2E.Reporting;

/// <summary>The machine description every report starts with, from the same commands a reader would type.</summary>
internal static class MachineInfo
{
    public static async Task<string> DescribeAsync()
    {
        var cpu = File.Exists("/proc/cpuinfo")
            ? File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))?.Split(':', 2)[1].Trim()
            : null;
        var lines = new List<string>
        {
            $"$ nproc\n{await ExternalTool.DescribeAsync("nproc")}",
            $"$ grep -m1 'model name' /proc/cpuinfo\n{cpu}",
            $"$ free -h\n{await ExternalTool.DescribeAsync("free", "-h")}",
            $"$ uname -r\n{await ExternalTool.DescribeAsync("uname", "-r")}",
            $"$ dotnet --version\n{await ExternalTool.DescribeAsync("dotnet", "--version")}",
            $"$ nginx -v\n{await ExternalTool.DescribeAsync("nginx", "-v")}",
            $"$ curl --version | head -1\n{(await ExternalTool.DescribeAsync("curl", "--version")).Split('\n')[0]}",
            $"$ h2load --version\n{await ExternalTool.DescribeAsync("h2load", "--version")}",
            $"$ wrk --version | head -1\n{(await ExternalTool.DescribeAsync("wrk", "--version")).Split('\n')[0]}",
        };
        return "```text\n" + string.Join("\n", lines) + "\n```";
    }
}
