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
        var large = results.Where(r => !r.Group.StartsWith("5.", StringComparison.Ordinal) && r.Group != ConcurrencyCase.Group);
        var small = results.Where(r => r.Group == SmallFileCases.Group);
        await File.WriteAllTextAsync(Path.Combine(directory, "large.dat"), Data(large, s => s.MegabytesPerSecond));
        await File.WriteAllTextAsync(Path.Combine(directory, "small.dat"), Data(small, s => s.RequestsPerSecond));
        var script = Path.Combine(directory, "results.gp");
        var legend = results.Any(r => r.Server == "ours-before")
            ? "NaN with boxes lc 1 title \"ours\", NaN with boxes lc 2 title \"nginx\", NaN with boxes lc 3 title \"ours-before\""
            : "NaN with boxes lc 1 title \"ours\", NaN with boxes lc 2 title \"nginx\"";
        await File.WriteAllTextAsync(script, $$"""
            set terminal pngcairo size 1400,1000 font "DejaVu Sans,11"
            set output 'results.png'
            set multiplot layout 2,1 title "FileTransfer (ours) and nginx on loopback: median, whiskers min–max" font ",14"
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
        if (ExternalTool.Find("gnuplot") is null)
        {
            Console.Error.WriteLine("gnuplot not installed: results.gp written, no PNG (apt-get install gnuplot-nox)");
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

            text.AppendLine(CultureInfo.InvariantCulture, $"\"{label}\" {spread.Median:F1} {spread.Min:F1} {spread.Max:F1} {r.Server switch { "ours" => 1, "nginx" => 2, _ => 3 }}");
        }

        return text.Length == 0 ? "\"none\" 0 0 0 1\n" : text.ToString();
    }
}
