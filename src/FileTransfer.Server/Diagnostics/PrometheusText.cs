using System.Diagnostics.Metrics;
using System.Globalization;
using System.Text;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// Writes totals in the Prometheus text exposition format 0.0.4: per metric a <c># HELP</c> and a
/// <c># TYPE</c> line, then one sample per label set. Counters get the <c>_total</c> suffix;
/// up-down counters are gauges. Names map '.' to '_' ("filetransfer.bytes_sent" →
/// "filetransfer_bytes_sent_total").
/// </summary>
internal static class PrometheusText
{
    public const string ContentType = "text/plain; version=0.0.4; charset=utf-8";

    public static string Write(IEnumerable<InstrumentTotals> instruments)
    {
        var text = new StringBuilder();
        foreach (var totals in instruments)
        {
            var instrument = totals.Instrument;
            var isCounter = instrument is Counter<long>;
            var name = NameOf(instrument.Name) + (isCounter ? "_total" : string.Empty);
            text.Append("# HELP ").Append(name).Append(' ').Append(EscapeHelp(instrument.Description ?? string.Empty)).Append('\n');
            text.Append("# TYPE ").Append(name).Append(isCounter ? " counter" : " gauge").Append('\n');
            foreach (var series in totals.Series)
            {
                text.Append(name);
                if (series.Labels.Length > 0)
                {
                    text.Append('{');
                    text.AppendJoin(',', series.Labels.Select(l => $"{NameOf(l.Key)}=\"{EscapeLabelValue(l.Value)}\""));
                    text.Append('}');
                }

                text.Append(' ').Append(Interlocked.Read(ref series.Value).ToString(CultureInfo.InvariantCulture)).Append('\n');
            }
        }

        return text.ToString();
    }

    /// <summary>Metric and label names allow [a-zA-Z0-9_:] (label names without ':'); anything else becomes '_'.</summary>
    private static string NameOf(string name) =>
        string.Create(name.Length, name, (span, source) =>
        {
            for (var i = 0; i < source.Length; i++)
            {
                var c = source[i];
                span[i] = char.IsAsciiLetterOrDigit(c) || c == '_' ? c : '_';
            }
        });

    // The format's escapes: in HELP '\' and newline; in label values also '"'.
    private static string EscapeHelp(string value) => value.Replace("\\", @"\\", StringComparison.Ordinal).Replace("\n", @"\n", StringComparison.Ordinal);

    private static string EscapeLabelValue(string value) => EscapeHelp(value).Replace("\"", "\\\"", StringComparison.Ordinal);
}
