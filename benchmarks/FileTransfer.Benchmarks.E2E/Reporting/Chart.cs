using System.Globalization;
using System.Text;
using FileTransfer.Benchmarks.E2E.Cases;
using FileTransfer.Benchmarks.E2E.Infrastructure;

namespace FileTransfer.Benchmarks.E2E.Reporting;

/// <summary>
/// results.png with gnuplot: bars per protocol and client for the large transfers (MB/s) and the
/// small files (requests/s), ours and nginx in two colours, whiskers from the slowest to the fastest run.
/// </summary>
internal static class Chart
{
    public static async Task WriteAsync(IReadOnlyList<CaseResult> results, string directory)
    {
        await WriteSweepAsync(results, directory);
        var large = results.Where(r => r.Group is DotnetDownloadCase.Group or NeutralDownloadCase.Group or UploadCase.Group or ClientCases.Group or GrpcCases.DownloadGroup or GrpcCases.UploadGroup);
        var small = results.Where(r => r.Group == SmallFileCases.Group && r.Samples.All(s => s.Latency is null));
        await File.WriteAllTextAsync(Path.Combine(directory, "large.dat"), Data(large, s => s.MegabytesPerSecond));
        await File.WriteAllTextAsync(Path.Combine(directory, "small.dat"), Data(small, s => s.RequestsPerSecond));
        var script = Path.Combine(directory, "results.gp");
        var legend = "NaN with boxes lc 1 title \"ours\", NaN with boxes lc 2 title \"nginx\", NaN with boxes lc 3 title \"nginx-log\", NaN with boxes lc 4 title \"other\"";
        await File.WriteAllTextAsync(script, $$"""
            set terminal pngcairo size 2400,1200 font "DejaVu Sans,11"
            set output 'results.png'
            set multiplot layout 2,1 title "FileTransfer (ours), nginx and the gRPC references on loopback: median, whiskers min–max" font ",14"
            set style fill solid 0.85 border -1
            set boxwidth 0.7
            set grid ytics
            set yrange [0:*]
            set xtics rotate by 25 right font ",9" nomirror
            set key top right
            set bmargin 9
            set lmargin 16
            set title "Large files: throughput (MB/s, higher is better)"
            set ylabel "MB/s"
            plot 'large.dat' using 0:2:3:4:(0.7):5:xtic(1) with boxerrorbars lc variable notitle, \
                 {{legend}}
            set title "Small files: requests per second (higher is better)"
            set ylabel "requests/s"
            plot 'small.dat' using 0:2:3:4:(0.7):5:xtic(1) with boxerrorbars lc variable notitle, \
                 {{legend}}
            unset multiplot
            """);
        await PlotAsync(script, directory);
    }

    /// <summary>
    /// grpc-chunks.png: median throughput against chunk size (log scale) for DownloadFile and
    /// UploadFile, whiskers from the slowest to the fastest run; below it server CPU seconds per GiB.
    /// </summary>
    private static async Task WriteSweepAsync(IReadOnlyList<CaseResult> results, string directory)
    {
        var sweep = results.Where(r => r.Group == GrpcChunkSweep.Group && r.ChunkBytes is not null && r.Samples.Count > 0 && r.Error is null).ToList();
        if (sweep.Count == 0)
        {
            return;
        }

        foreach (var direction in new[] { "download", "upload" })
        {
            var text = new StringBuilder();
            foreach (var r in sweep.Where(r => r.Name.StartsWith(direction, StringComparison.Ordinal)).OrderBy(r => r.ChunkBytes))
            {
                var speed = r.Of(s => s.MegabytesPerSecond);
                var cpu = r.Of(s => s.CpuSecondsPerGiB);
                text.AppendLine(CultureInfo.InvariantCulture, $"{r.ChunkBytes} {speed.Median:F2} {speed.Min:F2} {speed.Max:F2} {cpu.Median:F3} {cpu.Min:F3} {cpu.Max:F3}");
            }

            await File.WriteAllTextAsync(Path.Combine(directory, $"sweep-{direction}.dat"), text.Length == 0 ? "NaN NaN NaN NaN NaN NaN NaN\n" : text.ToString());
        }

        var script = Path.Combine(directory, "grpc-chunks.gp");
        await File.WriteAllTextAsync(script, """
            set terminal pngcairo size 1200,900 font "DejaVu Sans,11"
            set output 'grpc-chunks.png'
            set multiplot layout 2,1 title "gRPC chunk size: median of the runs, whiskers min–max (FileTransfer, loopback)" font ",14"
            set logscale x 2
            set format x "%.0b%B"
            set xrange [8:8388608]
            set grid xtics ytics
            set key top left
            set lmargin 12
            set title "Throughput (MB/s, higher is better)"
            set ylabel "MB/s"
            set logscale y 10
            plot 'sweep-download.dat' using 1:2:3:4 with yerrorlines lw 2 pt 7 title "DownloadFile", \
                 'sweep-upload.dat' using 1:2:3:4 with yerrorlines lw 2 pt 5 title "UploadFile"
            set title "Server CPU per GiB moved (s, lower is better)"
            set ylabel "CPU s / GiB"
            set xlabel "chunk size (bytes of file data per message)"
            plot 'sweep-download.dat' using 1:5:6:7 with yerrorlines lw 2 pt 7 title "DownloadFile", \
                 'sweep-upload.dat' using 1:5:6:7 with yerrorlines lw 2 pt 5 title "UploadFile"
            unset multiplot
            """);
        await PlotAsync(script, directory);
    }

    private static async Task PlotAsync(string script, string directory)
    {
        if (ExternalTool.Find("gnuplot") is null)
        {
            Console.Error.WriteLine($"gnuplot not installed: {Path.GetFileName(script)} written, no PNG (apt-get install gnuplot-nox)");
            return;
        }

        var start = new System.Diagnostics.ProcessStartInfo("gnuplot", [script]) { WorkingDirectory = directory, RedirectStandardError = true };
        using var process = System.Diagnostics.Process.Start(start)!;
        var error = await process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        if (process.ExitCode != 0)
        {
            Console.Error.WriteLine("gnuplot failed: " + error);
        }
    }

    private static string Data(IEnumerable<CaseResult> rows, Func<Sample, double> figure)
    {
        var text = new StringBuilder();
        foreach (var r in rows.Where(r => r.Samples.Count > 0 && r.Error is null))
        {
            var spread = r.Of(s => figure(s));
            var label = $"{r.Name.Split(' ')[0]} {r.Server} {r.Protocol} {r.Client.Replace(" HttpClient", "", StringComparison.Ordinal)}".Replace("\"", "'", StringComparison.Ordinal);
            if (r.Group == SmallFileCases.Group)
            {
                label = $"{r.Name[4..]} {r.Server} {r.Protocol} {r.Client.Split(' ')[0]}";
            }

            text.AppendLine(CultureInfo.InvariantCulture, $"\"{label}\" {spread.Median:F1} {spread.Min:F1} {spread.Max:F1} {r.Server switch { "ours" => 1, NginxServer.Plain => 2, NginxServer.Logging => 3, _ => 4 }}");
        }

        return text.Length == 0 ? "\"none\" 0 0 0 1\n" : text.ToString();
    }
}
