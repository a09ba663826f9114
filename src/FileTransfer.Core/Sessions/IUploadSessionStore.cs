namespace FileTransfer.Core;

/// <summary>
/// Where a backend keeps resumable upload sessions: each session's record and the bytes received
/// so far, durable across restarts and, for a store shared by several servers, visible to all of
/// them. It decides nothing: ids arrive well formed (<see cref="UploadSessionIds"/>), names checked
/// (<see cref="FileNames"/>), and every rule (offsets, lengths, limits, owners, expiry, digests) is
/// <see cref="UploadSessions"/>'s, the only caller. The bytes end as an <see cref="IStagedObject"/>
/// that the backend's own <see cref="IStorageBackend.CommitAsync"/> makes visible, so that a
/// resumable upload commits exactly as every other upload does. The session contract suite in the
/// tests holds every implementation to this.
/// </summary>
public interface IUploadSessionStore
{
    /// <summary>
    /// Records a new session with no bytes (<see cref="UploadSession.Offset"/> is 0). Refuses what the
    /// medium can refuse before a byte arrives, as <see cref="IStorageBackend.StageAsync"/> does: the
    /// name is a folder or under a file (<see cref="ErrorReason.NameConflict"/>), the name leads where
    /// the medium will not go (<see cref="ErrorReason.InvalidFileName"/>), less free space than a
    /// declared <see cref="UploadSession.Length"/> (<see cref="ErrorReason.StorageFull"/>).
    /// </summary>
    ValueTask CreateAsync(UploadSession session, CancellationToken cancellationToken);

    /// <summary>The session as last saved, or null when there is none. Needs no lease: what it returns is always a saved state.</summary>
    ValueTask<UploadSession?> GetAsync(string id, CancellationToken cancellationToken);

    /// <summary>
    /// The one writer's lease on session <paramref name="id"/>, or null at once when another holder
    /// has it (in this process or any other sharing the store): never waits for it. A lease whose
    /// holder dies without releasing it must lapse by itself (the local disk: an OS file lock that
    /// goes with the process; an object store: a lease record with an expiry that its holder renews
    /// on every save). Throws <see cref="ErrorReason.UploadNotFound"/> when there is no such session.
    /// </summary>
    ValueTask<IUploadSessionLease?> TryAcquireAsync(string id, CancellationToken cancellationToken);

    /// <summary>Every session, saved state, in no particular order (the sweeper picks the expired ones).</summary>
    IAsyncEnumerable<UploadSession> ListAsync(CancellationToken cancellationToken);
}

/// <summary>
/// Exclusive use of one session, until disposed. Bytes are appended at the session's saved offset
/// and become part of the session only with <see cref="SaveAsync"/>: bytes written but not saved
/// when the lease ends are dropped, so the saved offset and hash state always describe exactly the
/// durable bytes.
/// </summary>
public interface IUploadSessionLease : IAsyncDisposable
{
    /// <summary>The session as saved, read under this lease (so no other writer changes it meanwhile).</summary>
    UploadSession Session { get; }

    /// <summary>
    /// Appends <paramref name="bytes"/> after the bytes written so far under this lease (the first at
    /// the saved offset). A write that throws counts for nothing: the next write goes where it would
    /// have gone. The core hands over blocks of 256 KiB but the last before a save.
    /// </summary>
    /// <exception cref="FileTransferException"><see cref="ErrorReason.StorageFull"/> when the medium is full.</exception>
    ValueTask WriteAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken);

    /// <summary>
    /// Makes the first <paramref name="session"/>.<see cref="UploadSession.Offset"/> bytes durable,
    /// then the record (offset, hash state, length, expiry) with them, in that order, so that a saved
    /// offset is never ahead of the durable bytes; bytes written past it are dropped. A store that
    /// writes its medium in large parts (S3's 5 MiB minimum) keeps a shorter tail some other durable
    /// way. For a completed session (<see cref="UploadSession.Completed"/> set, after
    /// <see cref="HandOverAsync"/> and the commit) only the record is saved. Returns it as saved;
    /// later writes continue after its offset.
    /// </summary>
    ValueTask<UploadSession> SaveAsync(UploadSession session, CancellationToken cancellationToken);

    /// <summary>
    /// The saved bytes (exactly <see cref="UploadSession.Offset"/> of them) as a sealed staged write of
    /// <see cref="UploadSession.Name"/>, for the backend's <see cref="IStorageBackend.CommitAsync"/>.
    /// The bytes stay the session's until that commit succeeds: disposing the staged object
    /// uncommitted (the commit failed: a precondition, a folder in the way, the store) leaves them
    /// to the session as saved, so that a later hand-over offers them again; <see cref="DeleteAsync"/>
    /// removes them.
    /// </summary>
    ValueTask<IStagedObject> HandOverAsync(CancellationToken cancellationToken);

    /// <summary>Removes the session: its record and every byte it holds. Later reads of the id find nothing.</summary>
    ValueTask DeleteAsync(CancellationToken cancellationToken);
}
