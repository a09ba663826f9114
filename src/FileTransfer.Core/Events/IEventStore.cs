namespace FileTransfer.Core;

/// <summary>
/// Where a backend keeps events: the journal watchers resume from and the webhook outbox, as small
/// objects under keys the core chooses (<c>journal/...</c>, <c>outbox/...</c>; ASCII, '/'-separated).
/// The local disk keeps them under the root's <c>.ft-events/</c>, an object store in the bucket's
/// reserved area, so that they survive a restart and, for a store several replicas share, every
/// replica sees every other's. It decides nothing: the journal, the outbox, the leases on deliveries
/// and the order of events are the core's (<see cref="FileEvents"/>).
/// </summary>
public interface IEventStore
{
    /// <summary>True when other processes use the same store (replicas on one bucket): the core then reads their events and honours their leases.</summary>
    bool IsShared { get; }

    /// <summary>Stores <paramref name="bytes"/> under a new <paramref name="key"/>, durably; returns its version, or null when the key exists.</summary>
    ValueTask<string?> TryCreateAsync(string key, ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken);

    /// <summary>
    /// Replaces the object under <paramref name="key"/> only while its version is still
    /// <paramref name="version"/> (as read or listed); returns the new version, or null when it changed or is gone. Of two
    /// processes replacing the same version, at most one succeeds.
    /// </summary>
    ValueTask<string?> TryReplaceAsync(string key, string version, ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken);

    /// <summary>The object and its version, or null when there is none.</summary>
    ValueTask<EventStoreObject?> ReadAsync(string key, CancellationToken cancellationToken);

    /// <summary>The keys under <paramref name="prefix"/> (a folder, ending in '/') after <paramref name="startAfter"/>, in ordinal order.</summary>
    IAsyncEnumerable<string> ListAsync(string prefix, string? startAfter, CancellationToken cancellationToken);

    /// <summary>Removes the object; nothing happens when there is none.</summary>
    ValueTask DeleteAsync(string key, CancellationToken cancellationToken);
}

/// <summary>An object's bytes and version, as read.</summary>
public sealed record EventStoreObject(byte[] Bytes, string Version);
