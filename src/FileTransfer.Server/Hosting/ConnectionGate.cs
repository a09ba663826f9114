using System.Net;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// The connection cap and the per-client share, shared by every endpoint's listener
/// (<see cref="GuardedConnectionListener"/>). The cap is Kestrel's effective
/// <see cref="KestrelServerLimits.MaxConcurrentConnections"/>, enforced before accept(2): over it
/// the listener stops accepting, so a flood waits in the kernel's queue instead of taking
/// descriptors (Kestrel's own check accepts each connection first, then closes it). A slot is held
/// until the transport connection is disposed, i.e. its socket closed; Kestrel's own count is
/// released earlier, so it never refuses what this gate let in.
/// <para>
/// The share: a client address gets one more connection only while it holds less than a quarter
/// (<see cref="FreeShareDivisor"/>) of the slots still free. A fixed fraction of the cap let four
/// addresses with a quarter each hold every slot (then /healthz waited 7-48 s for one); a share of
/// what is free shrinks as the server fills, so each further address gets less, an address that
/// holds nothing is let in while any slot is free, and one address alone holds at most a fifth.
/// </para>
/// </summary>
internal sealed class ConnectionGate
{
    /// <summary>An address may hold at most 1/4 of the free slots: 4 addresses leave 41% of the cap free, 8 leave 17%.</summary>
    internal const int FreeShareDivisor = 4;

    private readonly SemaphoreSlim? _slots;
    private readonly Dictionary<IPAddress, int> _clients = [];
    private readonly bool _limitsClients;
    private int _admitted;

    public ConnectionGate(IOptions<KestrelServerOptions> kestrel, IOptions<ConnectionLimitsOptions> connections, DescriptorBudget descriptors)
    {
        Descriptors = descriptors;
        Capacity = kestrel.Value.Limits.MaxConcurrentConnections;
        if (Capacity is { } capacity)
        {
            var slots = (int)Math.Min(capacity, int.MaxValue);
            _slots = new SemaphoreSlim(slots, slots);
        }

        var configured = connections.Value.MaxConnectionsPerClient;
        PerClient = configured is > 0 ? configured : null;
        SharesFreeSlots = configured != 0 && Capacity is not null;
        _limitsClients = SharesFreeSlots || PerClient is not null;
    }

    /// <summary>Most connections at once; null for no cap.</summary>
    public long? Capacity { get; }

    /// <summary>The configured ceiling per client address (<c>Connections:MaxConnectionsPerClient</c>); null for none.</summary>
    public int? PerClient { get; }

    /// <summary>Whether an address is held to its share of the free slots (a cap, and the per-client limit not turned off).</summary>
    public bool SharesFreeSlots { get; }

    /// <summary>The most one address can hold when no other holds any (for the start-up log line); null for no limit.</summary>
    public long? MostForOneClient
    {
        get
        {
            // An address holding n gets another while n * D < cap - n, so up to floor((cap - 1) / (D + 1)) + 1.
            long? share = SharesFreeSlots && Capacity is { } cap ? ((cap - 1) / (FreeShareDivisor + 1)) + 1 : null;
            return (share, PerClient) switch
            {
                ({ } s, { } p) => Math.Min(s, p),
                ({ } s, null) => s,
                (null, var p) => p,
            };
        }
    }

    /// <summary>What the default cap was derived from (for the start-up log lines).</summary>
    public DescriptorBudget Descriptors { get; }

    /// <summary>Waits for a free slot; throws <see cref="OperationCanceledException"/> when <paramref name="cancellationToken"/> fires first.</summary>
    public Task WaitAsync(CancellationToken cancellationToken) =>
        _slots?.WaitAsync(cancellationToken) ?? Task.CompletedTask;

    public void Release() => _slots?.Release();

    /// <summary>
    /// Counts a connection against <paramref name="client"/>; false (and nothing counted) when it
    /// already holds its share. A peer without an address (<see cref="ClientAddress.Unaddressed"/>)
    /// is held to the cap alone. <paramref name="held"/> is what it holds, the new one not included.
    /// </summary>
    public bool TryEnter(IPAddress client, out int held)
    {
        held = 0;
        if (!_limitsClients || client.Equals(ClientAddress.Unaddressed))
        {
            return true;
        }

        lock (_clients)
        {
            _clients.TryGetValue(client, out held);
            if (held >= PerClient || (SharesFreeSlots && (long)held * FreeShareDivisor >= Capacity - _admitted))
            {
                return false;
            }

            _clients[client] = held + 1;
            _admitted++;
            return true;
        }
    }

    public void Leave(IPAddress client)
    {
        if (!_limitsClients || client.Equals(ClientAddress.Unaddressed))
        {
            return;
        }

        lock (_clients)
        {
            if (!_clients.TryGetValue(client, out var count))
            {
                return;
            }

            _admitted--;
            if (count > 1)
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
