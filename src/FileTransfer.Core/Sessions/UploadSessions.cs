using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core;

/// <summary>
/// Resumable uploads, once for every protocol: tus, the IETF draft and gRPC only translate their
/// requests into these calls. A session is created with the same checks as any upload
/// (<see cref="FileOperations.BeginUploadAsync"/>: name, size limit, preconditions), continued by
/// its owner at its durable offset by one writer at a time, verified against the SHA-256 of every
/// byte however many requests delivered them, and committed through the backend's own commit. The
/// store (<see cref="IUploadSessionStore"/>) keeps it; this class decides everything about it.
/// </summary>
public sealed partial class UploadSessions
{
    /// <summary>Most UTF-8 bytes of client metadata a session keeps (tus <c>Upload-Metadata</c>).</summary>
    public const int MaxMetadataBytes = 4096;

    // How long a cancel waits for a writer of this process it told to stop.
    private static readonly TimeSpan StopWait = TimeSpan.FromSeconds(10);

    // How long a status query waits for a writer whose request was just cut to save what arrived.
    private static readonly TimeSpan CutWait = TimeSpan.FromSeconds(5);

    private readonly IUploadSessionStore? _store;
    private readonly UploadSessionOptions _options;
    private readonly ILogger<UploadSessions> _logger;
    private readonly UploadSessionTally _tally;

    // The writers of this process by session id, so that a cancel can stop one (draft-ietf-httpbis-
    // resumable-upload, Upload Cancellation: terminate in-flight requests before answering).
    private readonly ConcurrentDictionary<string, UploadSessionWrite> _writers = new(StringComparer.Ordinal);

    /// <param name="files">The operations whose upload checks and commit every session goes through.</param>
    /// <param name="store">The backend's session store; null when the backend keeps none (every call is then refused).</param>
    /// <param name="options">Expiry, sweep interval, checkpoint size.</param>
    /// <param name="time">The clock expiry is measured by.</param>
    /// <param name="logger">Where session events are logged.</param>
    public UploadSessions(FileOperations files, IUploadSessionStore? store, IOptions<UploadSessionOptions> options, TimeProvider time, ILogger<UploadSessions> logger)
    {
        Files = files;
        _store = store;
        _options = options.Value;
        Time = time;
        _logger = logger;
        _tally = new UploadSessionTally(_options);
    }

    /// <summary>How long a session lives after its creation or its last append (<see cref="UploadSessionOptions.ExpirySeconds"/>).</summary>
    public TimeSpan Expiry => _options.Expiry;

    /// <summary>How long <paramref name="session"/> has left before it expires (the draft's <c>max-age</c>).</summary>
    public TimeSpan TimeLeft(UploadSession session) => session.ExpiresAt - Time.GetUtcNow();

    internal FileOperations Files { get; }

    internal TimeProvider Time { get; }

    internal UploadSessionOptions Options => _options;

    /// <summary>A session's reservation lives as long as the session may, and a little longer (a sweep that comes late).</summary>
    internal static readonly TimeSpan QuotaSlack = TimeSpan.FromHours(1);

    internal TimeSpan QuotaLifetime => _options.Expiry + QuotaSlack;

    /// <summary>The id of session <paramref name="sessionId"/>'s reservation in the quota records.</summary>
    internal static string QuotaId(string sessionId) => "session:" + sessionId;

    private IUploadSessionStore Store => _store
        ?? throw Failures.Unavailable("The storage backend in use keeps no upload sessions: resumable uploads are not available.");

    /// <summary>
    /// Begins a session for <paramref name="request"/> (its name, declared length or none yet, digest,
    /// preconditions and a signed link's cap), owned by <paramref name="caller"/>. Refuses what any
    /// upload of the same request would be refused before its first byte.
    /// </summary>
    public async ValueTask<UploadSession> CreateAsync(UploadRequest request, Caller caller, string? metadata, CancellationToken cancellationToken)
    {
        var store = Store;
        if (metadata is not null && System.Text.Encoding.UTF8.GetByteCount(metadata) > MaxMetadataBytes)
        {
            throw new FileTransferException(ErrorReason.InvalidUploadStream, $"The upload metadata is longer than {MaxMetadataBytes} bytes.");
        }

        (request, var name, var maxBytes) = await Files.CheckUploadAsync(caller, request, cancellationToken);
        var now = Time.GetUtcNow();
        var session = new UploadSession(UploadSessionIds.New(), name, caller.Id, now, now + _options.EmptyExpiry)
        {
            Length = request.DeclaredLength,
            MaxBytes = maxBytes,
            ExpectedSha256 = request.ExpectedSha256,
            Preconditions = request.Preconditions,
            Metadata = metadata,
            HashState = new ResumableSha256().Export(),
        };
        var hold = await Files.ReserveAsync(QuotaId(session.Id), name, request.DeclaredLength, QuotaLifetime, cancellationToken);
        _tally.Reserve(caller.Id);
        try
        {
            await store.CreateAsync(session, cancellationToken);
        }
        catch
        {
            _tally.Release(caller.Id);
            await (hold?.ReleaseAsync() ?? ValueTask.CompletedTask);
            throw;
        }

        LogCreated(_logger, session.Id, name, caller.Id, session.Length);
        await RaiseAsync(session, FileEventTypes.UploadStarted, ChangeOrigin.Of(caller, request.Protocol));
        return session;
    }

    /// <summary>
    /// The session as saved, for its owner (or a caller the policy lets query it); refuses an unknown,
    /// foreign or expired one. When a request of this process is appending to it, the owner's query
    /// ends that request first, as tusd releases a lock to a new request: a client asks for the offset
    /// only to resume, so the request it resumes from is over for it, even if its connection was cut
    /// too recently for the server to have noticed. The answer then waits (up to a few seconds) until
    /// that request has saved what arrived, so that the client resumes from there, not from before it.
    /// </summary>
    public async ValueTask<UploadSession> GetAsync(string id, Caller caller, CancellationToken cancellationToken)
    {
        var session = await FindAsync(id, caller, SessionUse.Query, cancellationToken);
        if (_writers.TryGetValue(id, out var writer) && !writer.IsEnding && caller.Id == session.Owner)
        {
            writer.Supersede();
        }

        if (writer is not null && writer.IsEnding)
        {
            try
            {
                await writer.Ended.WaitAsync(CutWait, Time, cancellationToken);
            }
            catch (TimeoutException)
            {
                // Still saving: the saved state is the answer.
            }

            session = await FindAsync(id, caller, SessionUse.Query, cancellationToken);
        }

        return IsExpired(session) ? throw Failures.UploadExpired(session.ExpiresAt) : session;
    }

    /// <summary>
    /// Starts appending to a session at <paramref name="request"/>'s offset, which must be the durable
    /// offset. Holds the session's lease until the write is disposed: a second writer meanwhile is
    /// refused (<see cref="ErrorReason.UploadBusy"/>).
    /// </summary>
    public async ValueTask<UploadSessionWrite> BeginWriteAsync(UploadWriteRequest request, CancellationToken cancellationToken)
    {
        // A transfer from the start (a refused append counts as one too), named once the session is known.
        var transfer = Files.Transfers.Start(request.TransferOrigin, TransferDirection.Upload, "");

        // Ownership first, without the lease: a stranger learns nothing, not even that it is busy.
        var found = await FindAsync(request.Id, request.Caller, SessionUse.Write, cancellationToken);
        if (transfer is not null)
        {
            transfer.Name = found.Name;
        }

        if (IsExpired(found))
        {
            throw Failures.UploadExpired(found.ExpiresAt);
        }

        var lease = await Store.TryAcquireAsync(request.Id, cancellationToken) ?? throw Failures.UploadBusy();
        try
        {
            var session = Check(lease.Session, request.Caller);
            if (session.IsComplete)
            {
                throw Failures.UploadCompleted();
            }

            if (request.Offset != session.Offset)
            {
                throw Failures.UploadOffsetMismatch(session.Offset, request.Offset);
            }

            session = WithLength(session, request.Length);
            var hold = Files.ResumeHold(QuotaId(session.Id), session.Name, session.Length ?? session.Offset, QuotaLifetime);
            if (hold is not null && session.Length is { } length && length > hold.Reserved)
            {
                await hold.EnsureAsync(length, cancellationToken); // a length declared now is reserved now
            }

            var write = new UploadSessionWrite(this, lease, session, request.Checksum, ChangeOrigin.Of(request.Caller, request.Protocol), hold, transfer, cancellationToken);
            _writers[session.Id] = write;
            return write;
        }
        catch
        {
            request.Checksum?.Dispose();
            await lease.DisposeAsync();
            throw;
        }
    }

    /// <summary>
    /// Cancels a session: its record and bytes are removed. A writer of this process still appending
    /// to it is stopped first; one elsewhere makes the cancel fail as busy. <paramref name="protocol"/>
    /// is what its event reports.
    /// </summary>
    public async ValueTask CancelAsync(string id, Caller caller, TransferProtocol protocol, CancellationToken cancellationToken)
    {
        var session = await FindAsync(id, caller, SessionUse.Cancel, cancellationToken);
        var lease = await Store.TryAcquireAsync(id, cancellationToken);
        if (lease is null && _writers.TryGetValue(id, out var writer))
        {
            writer.Stop();
            var waited = Time.GetTimestamp();
            while (lease is null && Time.GetElapsedTime(waited) < StopWait)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(20), Time, cancellationToken);
                lease = await Store.TryAcquireAsync(id, cancellationToken);
            }
        }

        if (lease is null)
        {
            throw Failures.UploadBusy();
        }

        await using (lease)
        {
            await lease.DeleteAsync(cancellationToken);
        }

        if (!session.IsComplete)
        {
            _tally.Release(session.Owner);
        }

        await ReleaseHoldAsync(session);
        LogCancelled(_logger, id, caller.Id);
        await RaiseAsync(session, FileEventTypes.UploadCancelled, ChangeOrigin.Of(caller, protocol));
    }

    /// <summary>Removes every expired session that no writer holds, with its bytes; returns how many.</summary>
    public async ValueTask<int> RemoveExpiredAsync(CancellationToken cancellationToken)
    {
        if (_store is null)
        {
            return 0;
        }

        var removed = 0;
        var inProgress = new List<string>();
        await foreach (var session in _store.ListAsync(cancellationToken))
        {
            if (!IsExpired(session))
            {
                if (!session.IsComplete)
                {
                    inProgress.Add(session.Owner);
                }

                continue;
            }

            IUploadSessionLease? lease;
            try
            {
                lease = await _store.TryAcquireAsync(session.Id, cancellationToken);
            }
            catch (FileTransferException ex) when (ex.Reason == ErrorReason.UploadNotFound)
            {
                continue; // cancelled meanwhile
            }

            if (lease is null)
            {
                inProgress.Add(session.Owner);
                continue; // a writer holds it: it is not abandoned, and its next save moves the expiry
            }

            await using (lease)
            {
                if (IsExpired(lease.Session))
                {
                    await lease.DeleteAsync(cancellationToken);
                    await ReleaseHoldAsync(session);
                    LogExpired(_logger, session.Id, session.Name, session.Offset);
                    await RaiseAsync(lease.Session, FileEventTypes.UploadExpired, new ChangeOrigin(session.Owner, Protocol: null));
                    removed++;
                }
                else if (!lease.Session.IsComplete)
                {
                    inProgress.Add(session.Owner);
                }
            }
        }

        _tally.Recount(inProgress);
        return removed;
    }

    internal void LogSaveFailed(string id, Exception exception) => LogSaveFailure(_logger, id, exception);

    /// <summary>When a session with <paramref name="offset"/> durable bytes expires if nothing more arrives: sooner while it has none.</summary>
    internal DateTimeOffset ExpiryAfter(long offset) => Time.GetUtcNow() + (offset > 0 ? _options.Expiry : _options.EmptyExpiry);

    /// <summary>A session of <paramref name="owner"/> is no longer in progress (stored, or removed for a wrong digest).</summary>
    internal void Ended(string owner) => _tally.Release(owner);

    internal void Ended(UploadSessionWrite write) => _writers.TryRemove(new KeyValuePair<string, UploadSessionWrite>(write.Id, write));

    internal bool IsExpired(UploadSession session) => session.ExpiresAt <= Time.GetUtcNow();

    // A session that ends without storing its file gives its quota reservation back.
    internal ValueTask ReleaseHoldAsync(UploadSession session) =>
        session.IsComplete ? ValueTask.CompletedTask : Files.ResumeHold(QuotaId(session.Id), session.Name, 0, QuotaLifetime)?.ReleaseAsync() ?? ValueTask.CompletedTask;

    // A session's event, in order with the changes of its name (upload.completed is raised with the file's, at the commit).
    private async Task RaiseAsync(UploadSession session, string type, ChangeOrigin origin)
    {
        if (Files.Events is not { } events)
        {
            return;
        }

        Task raised;
        using (await events.OrderAsync([session.Name], CancellationToken.None))
        {
            raised = events.RaiseAsync(FileEvent.Draft(type, session.Name, origin) with { Size = session.Length, UploadId = session.Id });
        }

        await raised;
    }

    private async ValueTask<UploadSession> FindAsync(string id, Caller caller, SessionUse use, CancellationToken cancellationToken)
    {
        var store = Store;
        if (!UploadSessionIds.IsWellFormed(id))
        {
            throw Failures.UploadNotFound();
        }

        var session = await store.GetAsync(id, cancellationToken) ?? throw Failures.UploadNotFound();
        AccessPolicy.DemandSession(caller, session, use);
        return session;
    }

    // Under the lease: the session as the lease read it, still the caller's to write and not expired.
    private UploadSession Check(UploadSession session, Caller caller)
    {
        AccessPolicy.DemandSession(caller, session, SessionUse.Write);
        return IsExpired(session) ? throw Failures.UploadExpired(session.ExpiresAt) : session;
    }

    // A length the request declares (tus Upload-Length after Upload-Defer-Length, the draft's
    // Upload-Length): once known it never changes (draft: "their indicated values MUST match").
    private static UploadSession WithLength(UploadSession session, long? declared)
    {
        if (declared is not { } length || session.Length == length)
        {
            return session;
        }

        if (session.Length is { } known)
        {
            throw Failures.LengthConflict(known, $"this request declares {length}.");
        }

        if (length < session.Offset)
        {
            throw Failures.LengthConflict(length, $"{session.Offset} bytes have already arrived.");
        }

        return length > session.MaxBytes ? throw Failures.DeclaredTooLarge(length, session.MaxBytes) : session with { Length = length };
    }

    [LoggerMessage(EventId = 90, Level = LogLevel.Information, Message = "Upload {UploadId} began for {Name} (owner {Owner}, length {Length})")]
    private static partial void LogCreated(ILogger logger, string uploadId, string name, string owner, long? length);

    [LoggerMessage(EventId = 91, Level = LogLevel.Information, Message = "Upload {UploadId} cancelled by {Owner}")]
    private static partial void LogCancelled(ILogger logger, string uploadId, string owner);

    [LoggerMessage(EventId = 92, Level = LogLevel.Information, Message = "Upload {UploadId} of {Name} expired at {Offset} bytes and was removed")]
    private static partial void LogExpired(ILogger logger, string uploadId, string name, long offset);

    [LoggerMessage(EventId = 93, Level = LogLevel.Warning, Message = "Upload {UploadId}: could not save the bytes of an interrupted request; it resumes from its previous offset")]
    private static partial void LogSaveFailure(ILogger logger, string uploadId, Exception exception);
}

/// <summary>An append to a session, as a protocol request carries it.</summary>
/// <param name="Id">The session.</param>
/// <param name="Caller">Who appends: only the session's owner may (<see cref="AccessPolicy.DemandSession"/>).</param>
/// <param name="Offset">Where the client says its bytes start; must be the durable offset.</param>
public sealed record UploadWriteRequest(string Id, Caller Caller, long Offset)
{
    /// <summary>The protocol that carries it, as the events of the upload report it.</summary>
    public TransferProtocol Protocol { get; init; }

    /// <summary>The whole file's length, when this request declares it (null: the request says nothing).</summary>
    public long? Length { get; init; }

    /// <summary>A checksum of this request's bytes; they are kept only when it matches.</summary>
    public RequestChecksum? Checksum { get; init; }

    /// <summary>The protocol request the bytes arrive on: the append is counted as its transfer. Null: not counted.</summary>
    public TransferOrigin? TransferOrigin { get; init; }
}
