using System.Globalization;

namespace FileTransfer.Server.Tests.Diagnostics;

/// <summary>Reads samples out of a Prometheus text exposition.</summary>
public static class MetricsText
{
    /// <summary>The value of the sample written exactly as <paramref name="sample"/> (name and labels), or 0 when absent.</summary>
    public static long ValueOf(string exposition, string sample)
    {
        foreach (var line in exposition.Split('\n'))
        {
            if (line.StartsWith(sample + " ", StringComparison.Ordinal))
            {
                return long.Parse(line[(sample.Length + 1)..], CultureInfo.InvariantCulture);
            }
        }

        return 0;
    }
}
