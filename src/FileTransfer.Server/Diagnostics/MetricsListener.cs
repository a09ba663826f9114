using System.Diagnostics.Metrics;
using FileTransfer.Core;
using System.Globalization;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// Keeps the running totals of this host's <see cref="TransferMetrics"/> instruments for the
/// Prometheus endpoint. Only the meter created by this host's <see cref="IMeterFactory"/> is
/// observed, so two hosts in one process (tests) never see each other's numbers.
/// </summary>
internal sealed class MetricsListener : IDisposable
{
    private readonly MeterListener _listener = new();
    private readonly List<InstrumentTotals> _instruments = [];

    public MetricsListener(IMeterFactory meterFactory)
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == TransferMetrics.MeterName && ReferenceEquals(instrument.Meter.Scope, meterFactory))
            {
                var totals = new InstrumentTotals(instrument);
                lock (_instruments)
                {
                    _instruments.Add(totals);
                }

                listener.EnableMeasurementEvents(instrument, totals);
            }
        };
        _listener.SetMeasurementEventCallback<long>(static (_, value, tags, state) => ((InstrumentTotals)state!).Add(value, tags));
        _listener.Start();
    }

    /// <summary>Every observed instrument with its series, in the order they were created.</summary>
    public IReadOnlyList<InstrumentTotals> Snapshot()
    {
        lock (_instruments)
        {
            return [.. _instruments];
        }
    }

    public void Dispose() => _listener.Dispose();
}

/// <summary>One instrument's sums, one per distinct tag set (a handful: tags never carry file names).</summary>
internal sealed class InstrumentTotals(Instrument instrument)
{
    private readonly Lock _adding = new();
    private volatile Series[] _series = [];

    public Instrument Instrument { get; } = instrument;

    public IReadOnlyList<Series> Series => _series;

    public void Add(long value, ReadOnlySpan<KeyValuePair<string, object?>> tags) =>
        Interlocked.Add(ref Find(tags).Value, value);

    private Series Find(ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        // Lock-free lookup on the hot path (every write of a download); the lock only guards adding.
        foreach (var series in _series)
        {
            if (series.Matches(tags))
            {
                return series;
            }
        }

        lock (_adding)
        {
            foreach (var series in _series)
            {
                if (series.Matches(tags))
                {
                    return series;
                }
            }

            var labels = new List<KeyValuePair<string, string>>();
            foreach (var tag in tags)
            {
                labels.Add(new(tag.Key, Convert.ToString(tag.Value, CultureInfo.InvariantCulture) ?? string.Empty));
            }

            var added = new Series([.. labels.OrderBy(l => l.Key, StringComparer.Ordinal)]);
            _series = [.. _series, added];
            return added;
        }
    }
}

/// <summary>A label set and its running sum.</summary>
internal sealed class Series(KeyValuePair<string, string>[] labels)
{
    public long Value;

    public KeyValuePair<string, string>[] Labels { get; } = labels;

    public bool Matches(ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        if (tags.Length != Labels.Length)
        {
            return false;
        }

        foreach (var tag in tags)
        {
            var found = false;
            foreach (var label in Labels)
            {
                if (label.Key == tag.Key && label.Value == Convert.ToString(tag.Value, CultureInfo.InvariantCulture))
                {
                    found = true;
                    break;
                }
            }

            if (!found)
            {
                return false;
            }
        }

        return true;
    }
}
