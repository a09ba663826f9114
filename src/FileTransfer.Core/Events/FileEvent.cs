namespace FileTransfer.Core;

/// <summary>
/// One change, as webhooks, <c>WatchEvents</c>, <c>GET api/events</c> and the CLI report it
/// (docs/events.md). Its <see cref="Id"/> is unique and orders the events of one server: a watcher
/// resumes after the last id it saw.
/// </summary>
public sealed record FileEvent
{
    /// <summary><see cref="EventIds"/>: the time, the process that raised it and its sequence, sortable as text.</summary>
    public required string Id { get; init; }

    /// <summary>One of <see cref="FileEventTypes"/>.</summary>
    public required string Type { get; init; }

    public required DateTimeOffset Time { get; init; }

    /// <summary>The file's name (for upload events: the name the upload will be stored as).</summary>
    public required string Name { get; init; }

    /// <summary>Bytes of the stored version; for upload events the declared length (null when not known yet).</summary>
    public long? Size { get; init; }

    /// <summary>The stored version's ETag (file.created, file.replaced, upload.completed).</summary>
    public string? ETag { get; init; }

    /// <summary>The stored version's SHA-256 (file.created, file.replaced, upload.completed).</summary>
    public byte[]? Sha256 { get; init; }

    /// <summary><see cref="TransferProtocols.Code"/>, or null for a change the server made itself.</summary>
    public string? Protocol { get; init; }

    /// <summary>Who made the change (<see cref="Caller.Id"/>): a key's name or a token's subject, never a secret.</summary>
    public required string Caller { get; init; }

    /// <summary>The server that saw the change (<c>Events:Replica</c>).</summary>
    public required string Replica { get; init; }

    /// <summary>The upload session, for upload events.</summary>
    public string? UploadId { get; init; }

    /// <summary>The event about <paramref name="name"/> before it has an id (the core assigns ids in order).</summary>
    internal static FileEvent Draft(string type, string name, ChangeOrigin origin) => new()
    {
        Id = "",
        Type = type,
        Time = default,
        Name = name,
        Caller = origin.Caller,
        Protocol = origin.Protocol?.Code(),
        Replica = "",
    };

    /// <summary>A file.created or file.replaced event for a stored version.</summary>
    internal static FileEvent Stored(StoredObject stored, byte[] sha256, bool replaced, ChangeOrigin origin) =>
        Draft(replaced ? FileEventTypes.FileReplaced : FileEventTypes.FileCreated, stored.Name, origin) with
        {
            Size = stored.Size,
            ETag = stored.ETag,
            Sha256 = sha256,
        };
}
