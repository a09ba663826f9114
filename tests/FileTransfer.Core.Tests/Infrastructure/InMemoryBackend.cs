using System.Text;

namespace FileTransfer.Core.Tests.Infrastructure;

/// <summary>
/// A complete, thread-safe <see cref="IStorageBackend"/> in memory, shaped like an object store: no
/// folders (a name is a key), a new ETag for every version, digests kept with their version. It
/// passes the contract suite, which shows the suite asks only what a backend can give, and it
/// records what the core asks of it (every call, stagings, opens, listing requests, saved digests)
/// so that the core's tests can prove what the core did and did not do.
/// </summary>
internal sealed partial class InMemoryBackend : IStorageBackend
{
    private readonly Lock _gate = new();
    private readonly Dictionary<string, Entry> _current = new(StringComparer.Ordinal);
    private readonly List<StagedBytes> _stagings = [];
    private readonly List<ListRequest> _listRequests = [];
    private readonly List<(StoredObject Version, byte[] Sha256)> _savedDigests = [];
    private readonly Dictionary<string, int> _opens = new(StringComparer.Ordinal);
    private long _generation;
    private int _calls;
    private int _liveOpens;

    public string Location { get; } = $"memory://{Guid.NewGuid():N}";

    /// <summary>Calls of any method of <see cref="IStorageBackend"/>.</summary>
    public int Calls => Volatile.Read(ref _calls);

    /// <summary>Every staged write, committed, discarded or still open, in the order they began.</summary>
    public IReadOnlyList<StagedBytes> Stagings => Locked(() => _stagings.ToArray());

    /// <summary>Every listing page asked for.</summary>
    public IReadOnlyList<ListRequest> ListRequests => Locked(() => _listRequests.ToArray());

    /// <summary>Every digest handed to <see cref="SaveDigestAsync"/>, with the version it was for.</summary>
    public IReadOnlyList<(StoredObject Version, byte[] Sha256)> SavedDigests => Locked(() => _savedDigests.ToArray());

    /// <summary>Opened versions not yet disposed.</summary>
    public int LiveOpens => Volatile.Read(ref _liveOpens);

    /// <summary>Opens of <paramref name="name"/> so far.</summary>
    public int OpensOf(string name) => Locked(() => _opens.GetValueOrDefault(name));

    /// <summary>
    /// Stores <paramref name="bytes"/> under <paramref name="name"/> as another program would: no
    /// digest, no name check (an object put into the bucket by another client).
    /// </summary>
    public StoredObject Place(string name, byte[] bytes)
    {
        lock (_gate)
        {
            var version = NewVersion(name, bytes.Length, sha256: null);
            _current[name] = new Entry(version, bytes.ToArray());
            return version;
        }
    }

    public ValueTask<StoredObject?> StatAsync(string name, CancellationToken cancellationToken)
    {
        Called(cancellationToken);
        lock (_gate)
        {
            return ValueTask.FromResult(_current.GetValueOrDefault(name)?.Version);
        }
    }

    public ValueTask<IOpenedObject?> OpenAsync(string name, CancellationToken cancellationToken)
    {
        Called(cancellationToken);
        lock (_gate)
        {
            _opens[name] = _opens.GetValueOrDefault(name) + 1;
            if (!_current.TryGetValue(name, out var entry))
            {
                return ValueTask.FromResult<IOpenedObject?>(null);
            }

            // The entry's bytes are never written again: a replace puts a new entry in the map.
            Interlocked.Increment(ref _liveOpens);
            return ValueTask.FromResult<IOpenedObject?>(new OpenedBytes(this, entry));
        }
    }

    public ValueTask<ObjectPage> ListAsync(ListRequest request, CancellationToken cancellationToken)
    {
        Called(cancellationToken);
        ArgumentOutOfRangeException.ThrowIfLessThan(request.Limit, 1);
        List<StoredObject> matches;
        lock (_gate)
        {
            _listRequests.Add(request);
            matches = [.. _current.Values
                .Select(e => e.Version)
                .Where(v => v.Name.StartsWith(request.Prefix, StringComparison.Ordinal)
                            && FileNames.IsValid(v.Name)
                            && (request.After is null || NameOrder.Compare(v.Name, request.After) > 0))
                .OrderBy(v => v.Name, NameOrder.Instance)];
        }

        // A page ends at the limit, or before the name that would take it past the byte budget
        // (a page holds at least one name, so that every page makes progress).
        var page = new List<StoredObject>();
        var nameBytes = 0;
        foreach (var version in matches)
        {
            var bytes = Encoding.UTF8.GetByteCount(version.Name);
            if (page.Count == request.Limit || (page.Count > 0 && nameBytes + bytes > request.MaxNameBytes))
            {
                break;
            }

            page.Add(version);
            nameBytes += bytes;
        }

        return ValueTask.FromResult(new ObjectPage(page, page.Count < matches.Count ? page[^1].Name : null));
    }

    public ValueTask<IStagedObject> StageAsync(string name, long? declaredLength, CancellationToken cancellationToken)
    {
        Called(cancellationToken);
        var staged = new StagedBytes(this, name, declaredLength);
        lock (_gate)
        {
            _stagings.Add(staged);
        }

        return ValueTask.FromResult<IStagedObject>(staged);
    }

    public ValueTask<IReadOnlyList<CommittedObject>> CommitAsync(IReadOnlyList<PendingCommit> commits, CancellationToken cancellationToken)
    {
        Called(cancellationToken);
        var staged = commits.Select(c => c.Staged is StagedBytes s && s.Backend == this
            ? s
            : throw new ArgumentException("A staged write of another backend.", nameof(commits))).ToArray();
        if (staged.Select(s => s.Name).Distinct(StringComparer.Ordinal).Count() != staged.Length)
        {
            throw new ArgumentException("Each name may be committed once per call.", nameof(commits));
        }

        lock (_gate)
        {
            // Every check before the first change: a failed precondition leaves every name as it was.
            var existing = new Entry?[staged.Length];
            for (var i = 0; i < staged.Length; i++)
            {
                staged[i].EnsureCommittable();
                existing[i] = _current.GetValueOrDefault(staged[i].Name);
                commits[i].Preconditions.Check(staged[i].Name, existing[i]?.Version);
            }

            var results = new CommittedObject[staged.Length];
            for (var i = 0; i < staged.Length; i++)
            {
                var bytes = staged[i].TakeBytes();
                var version = NewVersion(staged[i].Name, bytes.Length, commits[i].Sha256.ToArray());
                _current[staged[i].Name] = new Entry(version, bytes);
                results[i] = new CommittedObject(version, existing[i] is not null) { ReplacedSize = existing[i]?.Version.Size ?? 0 };
            }

            return ValueTask.FromResult<IReadOnlyList<CommittedObject>>(results);
        }
    }

    public ValueTask<StoredObject?> DeleteAsync(string name, Preconditions preconditions, CancellationToken cancellationToken)
    {
        Called(cancellationToken);
        lock (_gate)
        {
            if (!_current.TryGetValue(name, out var entry))
            {
                return ValueTask.FromResult<StoredObject?>(null);
            }

            preconditions.Check(name, entry.Version);
            _current.Remove(name);
            return ValueTask.FromResult<StoredObject?>(entry.Version);
        }
    }

    public ValueTask SaveDigestAsync(StoredObject version, byte[] sha256, CancellationToken cancellationToken)
    {
        Called(cancellationToken);
        lock (_gate)
        {
            _savedDigests.Add((version, sha256.ToArray()));

            // Only onto the very version it was computed from: the name may hold another by now.
            if (_current.TryGetValue(version.Name, out var entry) && entry.Version.ETag == version.ETag)
            {
                _current[version.Name] = entry with { Version = entry.Version with { Sha256 = sha256.ToArray() } };
            }
        }

        return ValueTask.CompletedTask;
    }

    public ValueTask<bool> IsAvailableAsync(CancellationToken cancellationToken)
    {
        Called(cancellationToken);
        return ValueTask.FromResult(true);
    }

    // Under the lock: every version gets an ETag no other version of any name has had.
    private StoredObject NewVersion(string name, long size, byte[]? sha256) =>
        new(name, size, DateTimeOffset.UtcNow, $"\"m{++_generation:x}\"", sha256);

    private void Called(CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        Interlocked.Increment(ref _calls);
    }

    private T Locked<T>(Func<T> read)
    {
        lock (_gate)
        {
            return read();
        }
    }

    /// <summary>A version and its bytes, never changed once stored.</summary>
    private sealed record Entry(StoredObject Version, byte[] Bytes);
}
