namespace FileTransfer.Client;

/// <summary>
/// One change on the server, as <see cref="FileTransferClient.WatchAsync"/> reports it (gRPC
/// <c>WatchEvents</c>, REST <c>GET api/events</c>); the server's docs/events.md describes each member.
/// </summary>
/// <param name="Id">Unique; pass it as <c>after</c> to resume after this event.</param>
/// <param name="Type"><c>file.created</c>, <c>file.replaced</c>, <c>file.deleted</c>, <c>upload.started</c>, <c>upload.completed</c>, <c>upload.cancelled</c> or <c>upload.expired</c>.</param>
/// <param name="Time">When the server saw the change.</param>
/// <param name="Name">The file's name.</param>
/// <param name="Size">Bytes of the stored version (upload events: the declared length); null when not known.</param>
/// <param name="ETag">The stored version's ETag, quotes included, when the event stored one.</param>
/// <param name="Sha256">The stored version's SHA-256 in lowercase hex, when the event stored one.</param>
/// <param name="Protocol"><c>rest</c>, <c>grpc</c>, <c>tus</c>, <c>draft</c> or <c>web</c>; null for a change the server made itself.</param>
/// <param name="Caller">Who made the change (<c>key:...</c>, <c>user:...</c>, <c>link:...</c>, <c>anonymous</c>).</param>
/// <param name="Replica">The server that saw it.</param>
/// <param name="UploadId">The upload session, for upload events.</param>
public sealed record FileTransferEvent(
    string Id,
    string Type,
    DateTimeOffset Time,
    string Name,
    long? Size,
    string? ETag,
    string? Sha256,
    string? Protocol,
    string Caller,
    string Replica,
    string? UploadId);
