using System.Runtime.CompilerServices;
using System.Security.Cryptography;

namespace FileTransfer.Core;

/// <summary>
/// One request's append to a session, the same for every protocol: the declared length and the size
/// limit checked as bytes arrive, the bytes gathered into pooled 256 KiB blocks, written to the
/// store and hashed in order (the SHA-256 state continues from the session's), and saved with the
/// new offset every <see cref="UploadSessionOptions.CheckpointBytes"/> and at the end.
/// <see cref="FinishAsync"/> ends the request, and, when it completes the upload, verifies the
/// length and digest and commits the file. Disposed without finishing (the client went away, a
/// refusal, a full disk), it keeps as much as arrived, unless the request carried a checksum, which
/// can only be checked over all of its bytes (then it keeps none of them).
/// </summary>
public sealed class UploadSessionWrite : IAsyncDisposable, IBlockSink
{
    private readonly UploadSessions _sessions;
    private readonly IUploadSessionLease _lease;
    private readonly RequestChecksum? _checksum;
    private readonly ResumableSha256 _hash;
    private readonly CancellationTokenSource _stopped = new();
    private readonly ChangeOrigin _origin;
    private readonly QuotaHold? _hold;
    private readonly TransferMetrics.Transfer? _transfer;
    private readonly TaskCompletionSource _over = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly CancellationToken _request;
    private bool _disposing;
    private readonly BlockWriter _blocks;
    private UploadSession _session;
    private long _written;
    private bool _ended;

    internal UploadSessionWrite(UploadSessions sessions, IUploadSessionLease lease, UploadSession session, RequestChecksum? checksum, ChangeOrigin origin, QuotaHold? hold, TransferMetrics.Transfer? transfer, CancellationToken request)
    {
        _origin = origin;
        _hold = hold;
        _transfer = transfer;
        _request = request;
        _sessions = sessions;
        _lease = lease;
        _session = session;
        _checksum = checksum;
        _hash = ResumableSha256.Import(session.HashState);
        _blocks = new BlockWriter(this);
    }

    public string Id => _session.Id;

    /// <summary>The session: as last saved, with the length this request declared.</summary>
    public UploadSession Session => _session;

    /// <summary>Bytes of the file received so far, saved or not.</summary>
    public long Received => _session.Offset + _written + _blocks.Pending;

    /// <summary>
    /// Cancelled when another request cancels the session: the protocol ends this request at once
    /// (the draft's Upload Cancellation asks the server to terminate in-flight requests).
    /// </summary>
    public CancellationToken Stopped => _stopped.Token;

    /// <summary>True once the request is over but the write may still be saving what arrived (the request was cut, or it is being disposed).</summary>
    internal bool IsEnding => _disposing || _request.IsCancellationRequested || _stopped.IsCancellationRequested;

    /// <summary>Completes when the write has saved what it keeps and let go of the session.</summary>
    internal Task Ended => _over.Task;

    /// <summary>Appends one piece; refuses the piece that would pass the declared length or the size limit.</summary>
    // Pooled state machines, as Upload's: gRPC calls this once per chunk.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask AppendAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        if (_ended)
        {
            throw new InvalidOperationException("The write has ended.");
        }

        var after = Received + bytes.Length;
        if (_session.Length is { } length && after > length)
        {
            throw Failures.LengthExceeded(length);
        }

        if (after > _session.MaxBytes)
        {
            throw Failures.TooLarge(_session.MaxBytes);
        }

        if (_hold is not null && _hold.Needs(after))
        {
            await _hold.EnsureAsync(after, cancellationToken, _session.Length is null ? Quotas.GrowthStep : 0);
        }

        _checksum?.Append(bytes.Span);
        _transfer?.Add(bytes.Length);
        await _blocks.AppendAsync(bytes, cancellationToken);

        // Bounds what a server that dies mid-request loses. Not with a checksum: nothing may be kept
        // before all of the request's bytes are checked.
        if (_checksum is null && _written >= _sessions.Options.CheckpointBytes)
        {
            await SaveAsync(cancellationToken);
        }
    }

    /// <summary>Appends <paramref name="source"/> to its end through one pooled buffer.</summary>
    public Task CopyFromAsync(Stream source, CancellationToken cancellationToken) =>
        BlockWriter.CopyAsync(source, this, static (write, bytes, token) => write.AppendAsync(bytes, token), cancellationToken);

    /// <summary>
    /// Ends the request's bytes: they are checked against the request's checksum and saved; then,
    /// when <paramref name="end"/> says the upload is complete, its length and SHA-256 are verified
    /// and the file is committed, atomically, with the session's preconditions. A digest that does
    /// not match ends the session; a commit that fails for any other reason (a precondition, a
    /// folder in the way, the store) keeps it, bytes and all, for another try. Either way nothing is
    /// stored and the previous version stays.
    /// </summary>
    public async ValueTask<UploadSessionOutcome> FinishAsync(UploadEnd end, CancellationToken cancellationToken)
    {
        if (_ended)
        {
            throw new InvalidOperationException("The write has ended.");
        }

        await _blocks.FlushAsync(cancellationToken);
        if (_checksum is not null && !_checksum.Matches())
        {
            _ended = true; // nothing of this request is kept
            throw _checksum.Mismatch();
        }

        await SaveAsync(cancellationToken);
        _ended = true;
        var complete = end == UploadEnd.Complete || (end == UploadEnd.AtLength && _session.Length == _session.Offset);
        return complete ? await CompleteAsync() : new UploadSessionOutcome(_session, null);
    }

    /// <summary>
    /// True when the write was stopped because its owner came back with a new request for the session
    /// (<see cref="Supersede"/>), not because the session was cancelled.
    /// </summary>
    public bool Superseded { get; private set; }

    /// <summary>
    /// Tells the write to stop because the session's owner asks for it again (tusd's lock release): a
    /// client that asks for the offset has given up on this request, whose connection may be dead
    /// without the server having noticed yet. It keeps what arrived, as when a client goes away.
    /// </summary>
    internal void Supersede()
    {
        Superseded = true;
        Stop();
    }

    /// <summary>Tells the write to stop: <see cref="Stopped"/> is cancelled.</summary>
    internal void Stop()
    {
        try
        {
            _stopped.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // Ended meanwhile.
        }
    }

    public async ValueTask DisposeAsync()
    {
        _disposing = true;
        try
        {
            if (!_ended && _checksum is null && Received > _session.Offset)
            {
                await KeepWhatArrivedAsync();
            }
        }
        finally
        {
            _ended = true;
            _sessions.Ended(this);
            _checksum?.Dispose();
            _blocks.Dispose();
            _stopped.Dispose();
            try
            {
                await _lease.DisposeAsync();
            }
            finally
            {
                _over.TrySetResult();
            }
        }
    }

    // After the bytes: the length must be what was declared, the digest what the client gave; then
    // the backend commits. Not cancelled when the client leaves now: every byte has arrived, and a
    // client that asks afterwards learns that its file is stored.
    private async ValueTask<UploadSessionOutcome> CompleteAsync()
    {
        var session = _session;
        if (session.Length is { } length && length != session.Offset)
        {
            throw Failures.LengthConflict(length, $"the upload was ended after {session.Offset}.");
        }

        var sha256 = _hash.Finish();
        if (session.ExpectedSha256 is { } expected && !CryptographicOperations.FixedTimeEquals(expected, sha256))
        {
            await DiscardAsync(session);
            throw Failures.DigestMismatch();
        }

        // A commit that fails for a reason that is not these bytes (the name became a folder, a
        // precondition no longer holds, the store or the pre-commit hook is unreachable) keeps the
        // session and every byte: the client can fix what is in the way and complete again, or cancel
        // (docs/resumable-uploads.md). A pre-commit hook that refuses judged these bytes: sending them
        // again would be refused again, so, as a wrong digest, it ends the session.
        UploadResult result;
        try
        {
            await using var staged = await _lease.HandOverAsync(CancellationToken.None);
            result = await _sessions.Files.CommitStagedAsync(staged, session, sha256, _origin, _hold, CancellationToken.None);
        }
        catch (FileTransferException ex) when (ex.Reason == ErrorReason.UploadRejected)
        {
            await DiscardAsync(session);
            throw;
        }

        _session = await _lease.SaveAsync(
            session with
            {
                Length = session.Offset,
                HashState = [],
                Completed = new CompletedUpload(result.File.Object, result.Replaced),
                ExpiresAt = _sessions.Time.GetUtcNow() + _sessions.Expiry,
            },
            CancellationToken.None);
        _sessions.Ended(session.Owner);
        return new UploadSessionOutcome(_session, result);
    }

    // Bytes that can never be committed: the session, its bytes and its quota reservation go.
    private async ValueTask DiscardAsync(UploadSession session)
    {
        await _lease.DeleteAsync(CancellationToken.None);
        await (_hold?.ReleaseAsync() ?? ValueTask.CompletedTask);
        _sessions.Ended(session.Owner);
    }

    // The request ended early: keep every byte that reached the store, none that did not.
    private async ValueTask KeepWhatArrivedAsync()
    {
        try
        {
            await _blocks.FlushAsync(CancellationToken.None);
        }
        catch (Exception ex) when (ex is FileTransferException or IOException)
        {
            _blocks.Drop(); // a full disk: what did not fit is not kept
        }

        try
        {
            await SaveAsync(CancellationToken.None);
        }
        catch (Exception ex) when (ex is FileTransferException or IOException)
        {
            // The session keeps its previous saved state; the client resumes from there.
            _sessions.LogSaveFailed(Id, ex);
        }
    }

    private async ValueTask SaveAsync(CancellationToken cancellationToken)
    {
        await _blocks.FlushAsync(cancellationToken);
        _session = await _lease.SaveAsync(
            _session with
            {
                Offset = _session.Offset + _written,
                HashState = _hash.Export(),
                ExpiresAt = _sessions.ExpiryAfter(_session.Offset + _written),
            },
            cancellationToken);
        _written = 0;
    }

    // Hashed only once written: the hash state always covers exactly the bytes the store holds.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    async ValueTask IBlockSink.WriteBlockAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        await _lease.WriteAsync(bytes, cancellationToken);
        _hash.Append(bytes.Span);
        _written += bytes.Length;
    }
}

/// <summary>How a request ends its bytes.</summary>
public enum UploadEnd
{
    /// <summary>More may follow (draft <c>Upload-Complete: ?0</c>, gRPC without <c>finish</c>).</summary>
    Partial,

    /// <summary>Complete once the declared length is reached (tus: the upload ends when the offset reaches <c>Upload-Length</c>).</summary>
    AtLength,

    /// <summary>These were the last bytes (draft <c>Upload-Complete: ?1</c>, gRPC <c>finish</c>): verify and commit.</summary>
    Complete,
}

/// <summary>The session after a request, and the stored file when the request completed it.</summary>
public sealed record UploadSessionOutcome(UploadSession Session, UploadResult? Stored);
