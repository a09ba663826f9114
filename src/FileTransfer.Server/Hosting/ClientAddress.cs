using System.Net;
using System.Net.Sockets;

namespace FileTransfer.Server.Hosting;

/// <summary>Who a connection counts against for the per-client limit.</summary>
internal static class ClientAddress
{
    /// <summary>
    /// What a peer without an IP address (a Unix domain socket, usually a proxy on the same host)
    /// counts as: nobody in particular, so the connection cap applies and no per-client share.
    /// </summary>
    public static readonly IPAddress Unaddressed = IPAddress.None;

    /// <summary>
    /// The IPv4 address (also when it arrives IPv4-mapped on a dual-mode socket), or the IPv6 /64
    /// prefix: one host is usually handed a whole /64, so counting single IPv6 addresses would let
    /// it open a fresh "client" per address.
    /// </summary>
    public static IPAddress Of(EndPoint? remote)
    {
        if (remote is not IPEndPoint { Address: var address })
        {
            return Unaddressed;
        }

        if (address.IsIPv4MappedToIPv6)
        {
            return address.MapToIPv4();
        }

        if (address.AddressFamily != AddressFamily.InterNetworkV6)
        {
            return address;
        }

        Span<byte> bytes = stackalloc byte[16];
        address.TryWriteBytes(bytes, out _);
        bytes[8..].Clear();
        return new IPAddress(bytes);
    }
}
