using System.Globalization;
using FileTransfer.Benchmarks.E2E.Infrastructure;

namespace FileTransfer.Benchmarks.E2E.Reporting;

/// <summary>What the report says about the run itself: the commit, the machine, the tools, as the harness found them.</summary>
internal sealed record RunInfo(
    string Commit,
    string CommitSubject,
    bool Dirty,
    string DirtyFiles,
    DateTimeOffset Started,
    string CpuModel,
    int Cores,
    string Memory,
    string Kernel,
    IReadOnlyList<(string Tool, string Version)> Tools)
{
    /// <summary>Collects everything once, before the servers start.</summary>
    public static async Task<RunInfo> CollectAsync(string repository)
    {
        var cpu = File.Exists("/proc/cpuinfo")
            ? File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))?.Split(':', 2)[1].Trim() ?? "?"
            : "?";
        var memory = File.Exists("/proc/meminfo")
            ? File.ReadLines("/proc/meminfo").First().Split(':', 2)[1].Trim()
            : "?";

        // Dirty: a change to anything but the benchmark's own output (benchmarks/results/, RESULTS.md).
        var status = await ExternalTool.DescribeAsync("git", "-C", repository, "status", "--porcelain", "--", ".", ":!benchmarks/results", ":!benchmarks/RESULTS.md");
        var tools = new List<(string, string)>
        {
            ("dotnet (SDK)", await ExternalTool.DescribeAsync("dotnet", "--version")),
            (".NET runtime (harness)", System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription),
            ("nginx", await ExternalTool.DescribeAsync(ExternalTool.Find("nginx") ?? "nginx", "-v")),
            ("curl", FirstLine(await ExternalTool.DescribeAsync("curl", "--version"))),
            ("wrk", FirstLine(await ExternalTool.DescribeAsync("wrk", "--version"))),
            ("h2load", await ExternalTool.DescribeAsync("h2load", "--version")),
            ("python3 (Debian)", await ExternalTool.DescribeAsync(PythonGrpcServer.Interpreter, "--version")),
            ("python grpcio", await PythonGrpcServer.VersionAsync()),
            ("gnuplot", await ExternalTool.DescribeAsync("gnuplot", "--version")),
        };
        return new RunInfo(
            await ExternalTool.DescribeAsync("git", "-C", repository, "rev-parse", "HEAD"),
            await ExternalTool.DescribeAsync("git", "-C", repository, "log", "-1", "--format=%s"),
            status.Length > 0 && !status.StartsWith('('),
            status,
            DateTimeOffset.UtcNow,
            cpu,
            Environment.ProcessorCount,
            memory,
            await ExternalTool.DescribeAsync("uname", "-r"),
            tools);
    }

    public string ShortCommit => Commit.Length >= 7 ? Commit[..7] : Commit;

    /// <summary>The descriptor limit servers inherit (the product derives its connection cap from it).</summary>
    public static string DescriptorLimit() =>
        File.ReadLines("/proc/self/limits").FirstOrDefault(l => l.StartsWith("Max open files", StringComparison.Ordinal)) is { } line
            ? string.Join(' ', line["Max open files".Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries).Take(2))
            : "?";

    private static string FirstLine(string text) => text.Split('\n')[0];

    public static string Format(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
}
