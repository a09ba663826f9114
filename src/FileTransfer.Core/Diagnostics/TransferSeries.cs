using System.Diagnostics.Metrics;

namespace FileTransfer.Core;

/// <summary>
/// The counts of one (protocol, direction) pair, which <see cref="TransferMetrics"/>' observable
/// instruments read when a listener collects. Each count is a series of its own and appears once
/// something was counted in it, as a counter's series appears with its first measurement.
/// </summary>
internal sealed class TransferSeries(string protocol, string direction)
{
    private readonly KeyValuePair<string, object?>[] _protocolTag = [new("protocol", protocol)];
    private readonly KeyValuePair<string, object?>[] _pairTags = [new("protocol", protocol), new("direction", direction)];
    private readonly Lock _outcomesAdded = new();
    private OutcomeCount[] _outcomes = [];
    private long _active;
    private long _bytes;
    private bool _bytesCounted;

    public string Protocol => protocol;

    public string Direction => direction;

    public void Started() => Interlocked.Increment(ref _active);

    public void Moved(int bytes)
    {
        Interlocked.Add(ref _bytes, bytes);
        if (!_bytesCounted)
        {
            Volatile.Write(ref _bytesCounted, true);
        }
    }

    public void Ended(string outcome)
    {
        Interlocked.Decrement(ref _active);
        Interlocked.Increment(ref OutcomeOf(outcome).Count);
    }

    public Measurement<long> ActiveMeasurement() => new(Interlocked.Read(ref _active), _pairTags);

    /// <summary>The bytes moved so far, tagged by protocol (the instrument names the direction); none before the first count.</summary>
    public bool TryBytesMeasurement(out Measurement<long> measurement)
    {
        measurement = new(Interlocked.Read(ref _bytes), _protocolTag);
        return Volatile.Read(ref _bytesCounted);
    }

    public IEnumerable<Measurement<long>> CompletedMeasurements()
    {
        foreach (var outcome in Volatile.Read(ref _outcomes))
        {
            yield return new(Interlocked.Read(ref outcome.Count), [.. _pairTags, new("outcome", outcome.Outcome)]);
        }
    }

    // The outcomes are a handful of constants: a scan finds them without hashing, and
    // an outcome seen for the first time is added under a lock to a new array.
    private OutcomeCount OutcomeOf(string outcome)
    {
        foreach (var known in Volatile.Read(ref _outcomes))
        {
            if (known.Outcome == outcome)
            {
                return known;
            }
        }

        lock (_outcomesAdded)
        {
            var outcomes = _outcomes;
            foreach (var known in outcomes)
            {
                if (known.Outcome == outcome)
                {
                    return known;
                }
            }

            var added = new OutcomeCount(outcome);
            Volatile.Write(ref _outcomes, [.. outcomes, added]);
            return added;
        }
    }

    private sealed class OutcomeCount(string outcome)
    {
        public long Count;

        public string Outcome => outcome;
    }
}
