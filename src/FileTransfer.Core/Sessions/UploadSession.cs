namespace FileTransfer.Core;

/// <summary>
/// One resumable upload, as its store keeps it durably: what the client asked for when it began
/// (captured once, so that every later request, over any protocol, is held to the same rules), how
/// many bytes are durable, and the SHA-256 state of exactly those bytes. tus, the IETF draft and
/// gRPC continue the same session; <see cref="UploadSessions"/> decides everything about it.
/// </summary>
/// <param name="Id">128 random bits, base64url (<see cref="UploadSessionIds"/>): unguessable, and the whole address of the session.</param>
/// <param name="Name">The file it will be committed as, already checked against <see cref="FileNames"/>.</param>
/// <param name="Owner">Who began it, and alone may append to it: <see cref="Caller.Id"/> (<c>key:&lt;key id&gt;</c>, <c>user:&lt;subject&gt;</c>, <c>link:&lt;link id&gt;</c>).</param>
/// <param name="CreatedAt">When it began.</param>
/// <param name="ExpiresAt">When it is removed unless an append comes first (each append moves it to now + <see cref="UploadSessionOptions.ExpirySeconds"/>).</param>
public sealed record UploadSession(string Id, string Name, string Owner, DateTimeOffset CreatedAt, DateTimeOffset ExpiresAt)
{
    /// <summary>Bytes of the whole file, once the client has said (at the start or later); null while deferred.</summary>
    public long? Length { get; init; }

    /// <summary>Bytes durable in the store; the only offset ever reported to a client.</summary>
    public long Offset { get; init; }

    /// <summary>The cap in force: the storage limit, or a signed link's narrower one, as when the session began.</summary>
    public long MaxBytes { get; init; }

    /// <summary>SHA-256 the whole file must have (the client's digest, or the link's), checked before the commit.</summary>
    public byte[]? ExpectedSha256 { get; init; }

    /// <summary>What must hold of the current version of <see cref="Name"/>: checked when the session began and again, atomically, at the commit.</summary>
    public Preconditions Preconditions { get; init; } = Preconditions.None;

    /// <summary>What the client attached and wants back as it sent it (tus <c>Upload-Metadata</c>); opaque to the core.</summary>
    public string? Metadata { get; init; }

    /// <summary><see cref="ResumableSha256.Export"/> after exactly <see cref="Offset"/> bytes.</summary>
    public byte[] HashState { get; init; } = [];

    /// <summary>Set once the file is committed: the stored version. The session then holds no bytes and lives on until it expires, so that a client that missed the last answer can ask.</summary>
    public CompletedUpload? Completed { get; init; }

    public bool IsComplete => Completed is not null;
}

/// <summary>The version a completed session stored, and whether it replaced one.</summary>
public sealed record CompletedUpload(StoredObject Stored, bool Replaced);
