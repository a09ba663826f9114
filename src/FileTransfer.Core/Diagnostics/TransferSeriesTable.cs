using System.Diagnostics.Metrics;

namespace FileTransfer.Core;

/// <summary>
/// Every <see cref="TransferSeries"/> of one host, found by (protocol, direction). The pairs are a
/// handful of constants (<see cref="TransferProtocols"/>, <see cref="TransferDirection"/>): a scan (the
/// strings are compared by reference first) finds a transfer's pair without hashing; a pair seen for the first time is added under
/// a lock to a new array, which readers then see whole.
/// </summary>
internal sealed class TransferSeriesTable
{
    private readonly Lock _added = new();
    private TransferSeries[] _series = [];

    public TransferSeries Of(string protocol, string direction)
    {
        foreach (var series in Volatile.Read(ref _series))
        {
            if (Is(series, protocol, direction))
            {
                return series;
            }
        }

        lock (_added)
        {
            foreach (var series in _series)
            {
                if (Is(series, protocol, direction))
                {
                    return series;
                }
            }

            var added = new TransferSeries(protocol, direction);
            Volatile.Write(ref _series, [.. _series, added]);
            return added;
        }
    }

    public IEnumerable<Measurement<long>> Bytes(string direction)
    {
        foreach (var series in Volatile.Read(ref _series))
        {
            if (series.Direction == direction && series.TryBytesMeasurement(out var measurement))
            {
                yield return measurement;
            }
        }
    }

    public IEnumerable<Measurement<long>> Active()
    {
        foreach (var series in Volatile.Read(ref _series))
        {
            yield return series.ActiveMeasurement();
        }
    }

    public IEnumerable<Measurement<long>> Completed()
    {
        foreach (var series in Volatile.Read(ref _series))
        {
            foreach (var measurement in series.CompletedMeasurements())
            {
                yield return measurement;
            }
        }
    }

    private static bool Is(TransferSeries series, string protocol, string direction) =>
        series.Protocol == protocol && series.Direction == direction;
}
