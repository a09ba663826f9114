using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// The endpoints Kestrel bound, with their protocols. Kestrel's own log names the addresses
/// but not which one speaks HTTP/2 only; operators (and tests binding port 0) need both.
/// </summary>
public sealed class ListeningEndpoints
{
    private readonly List<ListenOptions> _endpoints = [];

    /// <summary>Bound addresses with the protocols each accepts; complete once the host has started.</summary>
    public IReadOnlyList<(Uri Url, HttpProtocols Protocols)> Addresses
    {
        get
        {
            lock (_endpoints)
            {
                return [.. _endpoints.Select(e => (new Uri(e.ToString()!.TrimEnd('/')), e.Protocols))];
            }
        }
    }

    /// <summary>The first address that accepts <paramref name="protocols"/> exactly.</summary>
    public Uri Get(HttpProtocols protocols) =>
        Addresses.First(a => a.Protocols == protocols).Url;

    internal void Add(ListenOptions listenOptions)
    {
        lock (_endpoints)
        {
            _endpoints.Add(listenOptions);
        }
    }
}
