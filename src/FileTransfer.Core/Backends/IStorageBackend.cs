namespace FileTransfer.Core;

/// <summary>
/// A medium that holds files: the local disk (the embedded default) or an S3-compatible store.
/// It knows nothing of HTTP or gRPC and holds no paths in what it returns; names reach it already
/// checked against <see cref="FileNames"/>. Every rule that is not about the medium (limits,
/// digests, preconditions at the start of a write, listing tokens, errors) lives in
/// <see cref="FileOperations"/>, which is the only caller. The contract suite in the tests holds
/// every implementation to the same behaviour.
/// </summary>
public interface IStorageBackend
{
    /// <summary>
    /// Where the files live, for logs and to key state that belongs to one store (a development
    /// key): a folder, or an <c>s3://</c> URL. Never holds a secret.
    /// </summary>
    string Location { get; }

    /// <summary>The current version of <paramref name="name"/>, or null when there is none (or it is a folder).</summary>
    /// <exception cref="FileTransferException">The medium refuses the name (<see cref="ErrorReason.InvalidFileName"/>) or is unavailable.</exception>
    ValueTask<StoredObject?> StatAsync(string name, CancellationToken cancellationToken);

    /// <summary>
    /// Opens the current version of <paramref name="name"/> for reading, or null when there is none.
    /// Everything about the version comes from this one open, and every read of the result returns
    /// that version's bytes, whatever replaces or deletes the name meanwhile (or the read fails).
    /// </summary>
    ValueTask<IOpenedObject?> OpenAsync(string name, CancellationToken cancellationToken);

    /// <summary>
    /// One page of the names that start with <see cref="ListRequest.Prefix"/> and pass
    /// <see cref="FileNames.IsValid"/>, in <see cref="NameOrder"/>, after the request's cursor.
    /// </summary>
    ValueTask<ObjectPage> ListAsync(ListRequest request, CancellationToken cancellationToken);

    /// <summary>
    /// Starts a write of <paramref name="name"/>: the bytes go somewhere no client can see until
    /// <see cref="CommitAsync"/>. Refuses what the medium can refuse before any byte arrives (the name
    /// is a folder, a folder in it is a file, less free space than <paramref name="declaredLength"/>).
    /// Disposing the staged object without a commit removes everything it wrote.
    /// </summary>
    ValueTask<IStagedObject> StageAsync(string name, long? declaredLength, CancellationToken cancellationToken);

    /// <summary>
    /// Makes staged writes visible, all or none: every precondition is checked against the version
    /// it would replace, atomically with the replace where the medium allows it (each backend
    /// documents what it guarantees), before the first becomes visible. Each write's digest is
    /// stored with its version. A failed precondition throws and leaves every previous version as it was.
    /// The caller seals every staged write first and names each name once.
    /// </summary>
    ValueTask<IReadOnlyList<CommittedObject>> CommitAsync(IReadOnlyList<PendingCommit> commits, CancellationToken cancellationToken);

    /// <summary>Removes the current version of <paramref name="name"/> if <paramref name="preconditions"/> hold; returns it, or null when there is none.</summary>
    ValueTask<StoredObject?> DeleteAsync(string name, Preconditions preconditions, CancellationToken cancellationToken);

    /// <summary>
    /// Remembers the digest of <paramref name="version"/>, computed by the core from that version's
    /// bytes, so that later opens of the same version carry it. A store that cannot keep it may ignore it.
    /// </summary>
    ValueTask SaveDigestAsync(StoredObject version, byte[] sha256, CancellationToken cancellationToken);

    /// <summary>Whether the medium answers: the storage root exists, the bucket can be reached.</summary>
    ValueTask<bool> IsAvailableAsync(CancellationToken cancellationToken);
}

/// <summary>A listing page request to a backend.</summary>
/// <param name="Prefix">Only names starting with this (ordinal).</param>
/// <param name="After">The backend's own cursor from the previous page, or null for the first page.</param>
/// <param name="Limit">Most names in the page.</param>
/// <param name="MaxNameBytes">Most UTF-8 bytes of names in the page (a page ends early when it would pass it).</param>
public sealed record ListRequest(string Prefix, string? After, int Limit, int MaxNameBytes);

/// <summary>A page of versions in <see cref="NameOrder"/>, and the backend's cursor for the rest (null on the last page).</summary>
public sealed record ObjectPage(IReadOnlyList<StoredObject> Objects, string? NextCursor);

/// <summary>A staged write to commit, what must hold of the version it replaces, and the digest of its bytes.</summary>
public sealed record PendingCommit(IStagedObject Staged, Preconditions Preconditions, byte[] Sha256);

/// <summary>A committed version, and whether it replaced one.</summary>
public sealed record CommittedObject(StoredObject Object, bool Replaced)
{
    /// <summary>The size of the version it replaced (0 when it replaced none): what a quota counts no more.</summary>
    public long ReplacedSize { get; init; }
}
