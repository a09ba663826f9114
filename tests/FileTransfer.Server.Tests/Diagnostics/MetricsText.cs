using System.Globalization;

namespace FileTransfer.Server.Tests.Diagnostics;

/// <summary>Reads samples out of a Prometheus text exposition.</summary>
public static class MetricsText
{
    /// <summary>
    /// The value of the sample <paramref name="sample"/> (a name and its labels, e.g.
    /// <c>x_total{a="1",b="2"}</c>, in any label order), or 0 when absent.
    /// </summary>
    public static long ValueOf(string exposition, string sample) => (long)DoubleOf(exposition, sample);

    public static double DoubleOf(string exposition, string sample)
    {
        var wanted = Parse(sample);
        foreach (var line in exposition.Split('\n'))
        {
            if (line.Length == 0 || line[0] == '#')
            {
                continue;
            }

            var space = line.LastIndexOf(' ');
            var found = Parse(line[..space]);
            if (found.Name == wanted.Name && found.Labels.SetEquals(wanted.Labels))
            {
                return double.Parse(line[(space + 1)..], CultureInfo.InvariantCulture);
            }
        }

        return 0;
    }

    /// <summary>Every sample line of the metric family <paramref name="name"/> (e.g. a histogram's _bucket, _sum and _count lines).</summary>
    public static IEnumerable<string> Lines(string exposition, string name) =>
        exposition.Split('\n').Where(l => l.StartsWith(name + "{", StringComparison.Ordinal) || l.StartsWith(name + " ", StringComparison.Ordinal));

    // Label values in these tests hold no ',' or '}'; a plain split is enough.
    private static (string Name, HashSet<string> Labels) Parse(string sample)
    {
        var brace = sample.IndexOf('{', StringComparison.Ordinal);
        if (brace < 0)
        {
            return (sample, []);
        }

        var labels = sample[(brace + 1)..sample.LastIndexOf('}')];
        return (sample[..brace], [.. labels.Split(',', StringSplitOptions.RemoveEmptyEntries)]);
    }
}
