using System.Net;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// The connection cap and the per-client limit, shared by every endpoint's listener
/// (<see cref="GuardedConnectionListener"/>). The cap is Kestrel's effective
/// <see cref="KestrelServerLimits.MaxConcurrentConnections"/>, enforced before accept(2): over it
/// the listener stops accepting, so a flood waits in the kernel's queue instead of taking
/// descriptors (Kestrel's own check accepts each connection first, then closes it). A slot is held
/// until the transport connection is disposed, i.e. its socket closed; Kestrel's own count is
/// released earlier, so it never refuses what this gate let in.
/// </summary>
internal sealed class ConnectionGate
{
    private readonly SemaphoreSlim? _slots;
    private readonly Dictionary<IPAddress, int> _clients = [];

    public ConnectionGate(IOptions<KestrelServerOptions> kestrel, IOptions<ConnectionLimitsOptions> connections, DescriptorBudget descriptors)
    {
        Descriptors = descriptors;
        Capacity = kestrel.Value.Limits.MaxConcurrentConnections;
        if (Capacity is { } capacity)
        {
            var slots = (int)Math.Min(capacity, int.MaxValue);
            _slots = new SemaphoreSlim(slots, slots);
        }

        PerClient = connections.Value.MaxConnectionsPerClient switch
        {
            null => Capacity is { } cap ? (int)Math.Clamp(cap / 4, 1, int.MaxValue) : null,
            0 => null,
            var configured => configured,
        };
    }

    /// <summary>Most connections at once; null for no cap.</summary>
    public long? Capacity { get; }

    /// <summary>Most connections per client address; null for no limit.</summary>
    public int? PerClient { get; }

    /// <summary>What the default cap was derived from (for the start-up log lines).</summary>
    public DescriptorBudget Descriptors { get; }

    /// <summary>Waits for a free slot; throws <see cref="OperationCanceledException"/> when <paramref name="cancellationToken"/> fires first.</summary>
    public Task WaitAsync(CancellationToken cancellationToken) =>
        _slots?.WaitAsync(cancellationToken) ?? Task.CompletedTask;

    public void Release() => _slots?.Release();

    /// <summary>Counts a connection against <paramref name="client"/>; false (and nothing counted) when it already holds its share.</summary>
    public bool TryEnter(IPAddress client)
    {
        if (PerClient is null)
        {
            return true;
        }

        lock (_clients)
        {
            _clients.TryGetValue(client, out var count);
            if (count >= PerClient)
            {
                return false;
            }

            _clients[client] = count + 1;
            return true;
        }
    }

    public void Leave(IPAddress client)
    {
        if (PerClient is null)
        {
            return;
        }

        lock (_clients)
        {
            if (_clients.TryGetValue(client, out var count) && count > 1)
            {
                _clients[client] = count - 1;
            }
            else
            {
                _clients.Remove(client);
            }
        }
    }

    /// <summary>Connections a client holds now (for tests and diagnostics).</summary>
    internal int CountOf(IPAddress client)
    {
        lock (_clients)
        {
            return _clients.GetValueOrDefault(client);
        }
    }
}
