namespace FileTransfer.Core;

/// <summary>
/// How many upload sessions are in progress, per owner and in all, against
/// <see cref="UploadSessionOptions.MaxSessionsPerOwner"/> and <see cref="UploadSessionOptions.MaxSessions"/>.
/// Counted in memory as this process creates, completes and cancels sessions, and recounted from
/// the store at every sweep (which lists every session anyway), so that it starts right after a
/// restart and, for a store that several servers share, takes in the sessions the others began
/// within one sweep interval. A guard against floods, not an account: between two sweeps it may be
/// off by what other servers did.
/// </summary>
internal sealed class UploadSessionTally(UploadSessionOptions options)
{
    private readonly Lock _lock = new();
    private Dictionary<string, int> _byOwner = new(StringComparer.Ordinal);
    private int _total;

    /// <summary>Counts one more session of <paramref name="owner"/>, or refuses it (<see cref="ErrorReason.TooManyUploads"/>) at a cap.</summary>
    public void Reserve(string owner)
    {
        lock (_lock)
        {
            if (_total >= options.MaxSessions)
            {
                throw Failures.TooManyUploads(options.MaxSessions, perOwner: false);
            }

            var held = _byOwner.GetValueOrDefault(owner);
            if (held >= options.MaxSessionsPerOwner)
            {
                throw Failures.TooManyUploads(options.MaxSessionsPerOwner, perOwner: true);
            }

            _byOwner[owner] = held + 1;
            _total++;
        }
    }

    /// <summary>One session of <paramref name="owner"/> is no longer in progress (completed, cancelled, removed, or never created).</summary>
    public void Release(string owner)
    {
        lock (_lock)
        {
            if (_byOwner.TryGetValue(owner, out var held) && held > 0)
            {
                _byOwner[owner] = held - 1;
                _total--;
                if (held == 1)
                {
                    _byOwner.Remove(owner);
                }
            }
        }
    }

    /// <summary>Replaces the counts with the owners of the sessions in progress the store holds.</summary>
    public void Recount(IEnumerable<string> owners)
    {
        var byOwner = new Dictionary<string, int>(StringComparer.Ordinal);
        var total = 0;
        foreach (var owner in owners)
        {
            byOwner[owner] = byOwner.GetValueOrDefault(owner) + 1;
            total++;
        }

        lock (_lock)
        {
            _byOwner = byOwner;
            _total = total;
        }
    }
}
