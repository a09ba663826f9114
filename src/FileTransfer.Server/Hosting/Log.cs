using System.Globalization;
using System.Net;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Hosting;

internal static partial class Log
{
    public static void Started(ILogger logger, string storageRoot, ListeningEndpoints endpoints, ConnectionGate gate)
    {
        StorageRootInUse(logger, storageRoot);
        foreach (var (url, protocols) in endpoints.Addresses)
        {
            Listening(logger, url, protocols);
        }

        var descriptors = gate.Descriptors;
        ConnectionLimits(logger, Describe(gate.Capacity), Describe(gate.MostForOneClient), Describe(descriptors.Limit), Describe(descriptors.OpenAtStart));
        if (descriptors.DerivedCap is { } budget && !(gate.Capacity <= budget))
        {
            CapAboveDescriptorBudget(logger, Describe(gate.Capacity), descriptors.Limit!.Value, budget);
        }
    }

    private static string Describe(long? value) => value?.ToString(CultureInfo.InvariantCulture) ?? "none";

    [LoggerMessage(EventId = 1, Level = LogLevel.Information, Message = "Storage root: {StorageRoot}")]
    private static partial void StorageRootInUse(ILogger logger, string storageRoot);

    [LoggerMessage(EventId = 2, Level = LogLevel.Information, Message = "Listening on {Url} ({Protocols})")]
    private static partial void Listening(ILogger logger, Uri url, HttpProtocols protocols);

    [LoggerMessage(EventId = 3, Level = LogLevel.Information,
        Message = "Connection cap: {MaxConnections}; per client address: {MostForOneClient} when alone, a quarter of the free slots when others hold some (descriptor limit {DescriptorLimit}, {DescriptorsOpen} open at start)")]
    private static partial void ConnectionLimits(ILogger logger, string maxConnections, string mostForOneClient, string descriptorLimit, string descriptorsOpen);

    [LoggerMessage(EventId = 9, Level = LogLevel.Warning,
        Message = "The connection cap ({MaxConnections}) is above the {Budget} that descriptor limit {DescriptorLimit} leaves room for: a flood of connections can exhaust the descriptors, and then the runtime itself fails. Raise the limit (ulimit -n, systemd LimitNOFILE, docker --ulimit nofile) or lower Connections:MaxConnections")]
    private static partial void CapAboveDescriptorBudget(ILogger logger, string maxConnections, long descriptorLimit, long budget);

    [LoggerMessage(EventId = 4, Level = LogLevel.Warning,
        Message = "Closed a connection from {Client}: it already holds {Held}, its share of the free connection slots (Connections:MaxConnectionsPerClient); {Suppressed} more closed since the last message")]
    public static partial void ClientOverConnectionLimit(ILogger logger, IPAddress client, int held, long suppressed);

    [LoggerMessage(EventId = 5, Level = LogLevel.Warning,
        Message = "Accepting on {EndPoint} failed (out of descriptors?); retrying in {DelayMs} ms; {Suppressed} more failures since the last message")]
    public static partial void AcceptFailing(ILogger logger, EndPoint endPoint, double delayMs, long suppressed);

    [LoggerMessage(EventId = 6, Level = LogLevel.Error, Message = "Accepting on {EndPoint} threw; retrying in {DelayMs} ms")]
    public static partial void AcceptThrew(ILogger logger, EndPoint endPoint, double delayMs, Exception exception);

    [LoggerMessage(EventId = 7, Level = LogLevel.Debug, Message = "Closing a refused connection failed")]
    public static partial void CloseFailed(ILogger logger, Exception exception);

    [LoggerMessage(EventId = 8, Level = LogLevel.Debug,
        Message = "Connection {ConnectionId} from {RemoteEndPoint} sent nothing within {TimeoutSeconds} s (Connections:FirstByteTimeout); closed")]
    public static partial void ClosedBeforeFirstByte(ILogger logger, string connectionId, EndPoint? remoteEndPoint, double timeoutSeconds);

    [LoggerMessage(EventId = 10, Level = LogLevel.Debug, Message = "Connection {ConnectionId} from {RemoteEndPoint} ended before its first byte: {Reason}")]
    public static partial void GoneBeforeFirstByte(ILogger logger, string connectionId, EndPoint? remoteEndPoint, string reason);
}
