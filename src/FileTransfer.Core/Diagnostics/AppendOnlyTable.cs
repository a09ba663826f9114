namespace FileTransfer.Core;

/// <summary>
/// A few values found by key, read without a lock or a hash: the table is an array that a reader
/// scans, and a key seen for the first time is added under a lock to a new array, which readers then
/// see whole. For keys that are a handful of constants (a transfer's protocol and direction, its
/// outcome), where scanning beats hashing and nothing is ever removed.
/// </summary>
internal sealed class AppendOnlyTable<TKey, TValue>
    where TKey : IEquatable<TKey>
{
    private readonly Lock _adding = new();
    private (TKey Key, TValue Value)[] _entries = [];

    /// <summary>Every value, in the order added.</summary>
    public IEnumerable<TValue> Values => Volatile.Read(ref _entries).Select(entry => entry.Value);

    public TValue GetOrAdd(TKey key, Func<TKey, TValue> create)
    {
        if (TryFind(Volatile.Read(ref _entries), key, out var found))
        {
            return found;
        }

        lock (_adding)
        {
            if (TryFind(_entries, key, out found))
            {
                return found;
            }

            var added = create(key);
            Volatile.Write(ref _entries, [.. _entries, (key, added)]);
            return added;
        }
    }

    private static bool TryFind((TKey Key, TValue Value)[] entries, TKey key, out TValue value)
    {
        foreach (var entry in entries)
        {
            if (entry.Key.Equals(key))
            {
                value = entry.Value;
                return true;
            }
        }

        value = default!;
        return false;
    }
}
