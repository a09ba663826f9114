using System.Diagnostics.Metrics;

namespace FileTransfer.Core;

/// <summary>
/// Every <see cref="TransferSeries"/> of one host, found by (protocol, direction): a handful of
/// constants (<see cref="TransferProtocols"/>, <see cref="TransferDirection"/>), so an
/// <see cref="AppendOnlyTable{TKey, TValue}"/>.
/// </summary>
internal sealed class TransferSeriesTable
{
    private readonly AppendOnlyTable<(string Protocol, string Direction), TransferSeries> _series = new();

    public TransferSeries Of(string protocol, string direction) =>
        _series.GetOrAdd((protocol, direction), static pair => new TransferSeries(pair.Protocol, pair.Direction));

    public IEnumerable<Measurement<long>> Bytes(string direction)
    {
        foreach (var series in _series.Values)
        {
            if (series.Direction == direction && series.TryBytesMeasurement(out var measurement))
            {
                yield return measurement;
            }
        }
    }

    public IEnumerable<Measurement<long>> Active() => _series.Values.Select(series => series.ActiveMeasurement());

    public IEnumerable<Measurement<long>> Completed() => _series.Values.SelectMany(series => series.CompletedMeasurements());
}
