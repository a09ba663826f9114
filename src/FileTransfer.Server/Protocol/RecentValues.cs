using System.Collections.Concurrent;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// Values computed from a request's strings (a header built from a file name, a parsed media type)
/// remembered for the next request that brings the same strings: the same few files are asked for
/// again and again, and the computation costs more than a lookup. At most <paramref name="capacity"/>
/// are kept; when a new one would exceed it, all are forgotten and the memo fills again, so that
/// clients asking for ever new names cost a computation each, as without the memo, and no memory.
/// </summary>
internal sealed class RecentValues<TKey, TValue>(int capacity, Func<TKey, TValue> compute)
    where TKey : notnull
{
    private readonly ConcurrentDictionary<TKey, TValue> _values = new();
    private int _count;

    public TValue this[TKey key]
    {
        get
        {
            if (_values.TryGetValue(key, out var known))
            {
                return known;
            }

            var value = compute(key);
            if (Interlocked.Increment(ref _count) > capacity)
            {
                // Forgetting all at once is cheaper than tracking use, and the next few requests refill it.
                _values.Clear();
                Volatile.Write(ref _count, 1);
            }

            _values[key] = value;
            return value;
        }
    }
}
