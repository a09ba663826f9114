namespace FileTransfer.Core;

/// <summary>What a watcher asks for, as gRPC <c>WatchEventsRequest</c> and <c>GET api/events</c> carry it.</summary>
/// <param name="Prefix">Only events of names that start with this (a folder ends in '/'); null or empty: all.</param>
/// <param name="After">Resume after this event id (retained ones first); null: only events from now on.</param>
/// <param name="Types">Only these types (<see cref="FileEventTypes"/>); null or empty: all.</param>
public sealed record EventQuery(string? Prefix, string? After, IReadOnlyCollection<string>? Types)
{
    /// <summary>
    /// The events of this query that <paramref name="caller"/> may read, from the
    /// journal then live, until cancelled. Refuses at once (before the first event) a caller that may
    /// read nothing, a cursor that is not an event id and an unknown type. Every event is checked
    /// against the caller's read rights on its name (<see cref="AccessPolicy"/>): a watcher sees what
    /// it could download, nothing else.
    /// </summary>
    public IAsyncEnumerable<FileEvent> Watch(FileEvents events, Caller caller, CancellationToken cancellationToken)
    {
        if (!AccessPolicy.MayAttempt(caller, FileOperation.Read))
        {
            throw AccessPolicy.Refusal(caller, FileOperation.Read, Prefix ?? "")!;
        }

        var after = string.IsNullOrEmpty(After) ? null : EventIds.Check(After);
        var types = Types is { Count: > 0 } ? Types.ToHashSet(StringComparer.Ordinal) : null;
        if (types?.FirstOrDefault(type => !FileEventTypes.IsKnown(type)) is { } unknown)
        {
            throw new FileTransferException(ErrorReason.InvalidPageRequest, $"Unknown event type '{unknown}'; the types are {string.Join(", ", FileEventTypes.All)}.");
        }

        var prefix = Prefix ?? "";
        return events.Feed.WatchAsync(
            e => e.Name.StartsWith(prefix, StringComparison.Ordinal)
                && (types is null || types.Contains(e.Type))
                && AccessPolicy.Refusal(caller, FileOperation.Read, e.Name) is null,
            after,
            cancellationToken);
    }
}
