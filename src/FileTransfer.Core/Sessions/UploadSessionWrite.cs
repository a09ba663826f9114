using System.Buffers;
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
public sealed class UploadSessionWrite : IAsyncDisposable
{
    private readonly UploadSessions _sessions;
    private readonly IUploadSessionLease _lease;
    private readonly RequestChecksum? _checksum;
    private readonly ResumableSha256 _hash;
    private readonly CancellationTokenSource _stopped = new();
    private readonly ChangeOrigin _origin;
    private UploadSession _session;
    private byte[]? _pending;
    private int _pendingLength;
    private long _written;
    private bool _ended;

    internal UploadSessionWrite(UploadSessions sessions, IUploadSessionLease lease, UploadSession session, RequestChecksum? checksum, ChangeOrigin origin)
    {
        _origin = origin;
        _sessions = sessions;
        _lease = lease;
        _session = session;
        _checksum = checksum;
        _hash = ResumableSha256.Import(session.HashState);
    }

    public string Id => _session.Id;

    /// <summary>The session: as last saved, with the length this request declared.</summary>
    public UploadSession Session => _session;

    /// <summary>Bytes of the file received so far, saved or not.</summary>
    public long Received => _session.Offset + _written + _pendingLength;

    /// <summary>
    /// Cancelled when another request cancels the session: the protocol ends this request at once
    /// (the draft's Upload Cancellation asks the server to terminate in-flight requests).
    /// </summary>
    public CancellationToken Stopped => _stopped.Token;

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

        _checksum?.Append(bytes.Span);

        // As Upload does: top up a partly filled block first, so that every write but the last
        // before a save is a whole block or more, whatever the client's pieces are.
        if (_pendingLength > 0 || bytes.Length < Upload.BlockSize)
        {
            var taken = Gather(bytes.Span);
            bytes = bytes[taken..];
            if (_pendingLength < Upload.BlockSize)
            {
                return;
            }

            await FlushPendingAsync(cancellationToken);
        }

        if (bytes.Length >= Upload.BlockSize)
        {
            await WriteAsync(bytes, cancellationToken);
        }
        else if (!bytes.IsEmpty)
        {
            Gather(bytes.Span);
        }

        // Bounds what a server that dies mid-request loses. Not with a checksum: nothing may be kept
        // before all of the request's bytes are checked.
        if (_checksum is null && _written >= _sessions.Options.CheckpointBytes)
        {
            await SaveAsync(cancellationToken);
        }
    }

    /// <summary>Appends <paramref name="source"/> to its end through one pooled buffer.</summary>
    public async Task CopyFromAsync(Stream source, CancellationToken cancellationToken)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(Upload.BlockSize);
        try
        {
            int read;
            while ((read = await source.ReadAtLeastAsync(buffer.AsMemory(0, Upload.BlockSize), Upload.BlockSize, throwOnEndOfStream: false, cancellationToken)) > 0)
            {
                await AppendAsync(buffer.AsMemory(0, read), cancellationToken);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>
    /// Ends the request's bytes: they are checked against the request's checksum and saved; then,
    /// when <paramref name="end"/> says the upload is complete, its length and SHA-256 are verified
    /// and the file is committed, atomically, with the session's preconditions. A commit that fails
    /// (digest, precondition) ends the session: nothing is stored, the previous version stays.
    /// </summary>
    public async ValueTask<UploadSessionOutcome> FinishAsync(UploadEnd end, CancellationToken cancellationToken)
    {
        if (_ended)
        {
            throw new InvalidOperationException("The write has ended.");
        }

        await FlushPendingAsync(cancellationToken);
        if (_checksum is not null && !_checksum.Matches())
        {
            _ended = true; // nothing of this request is kept
            throw Failures.ChecksumMismatch();
        }

        await SaveAsync(cancellationToken);
        _ended = true;
        var complete = end == UploadEnd.Complete || (end == UploadEnd.AtLength && _session.Length == _session.Offset);
        return complete ? await CompleteAsync() : new UploadSessionOutcome(_session, null);
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
            if (_pending is not null)
            {
                ArrayPool<byte>.Shared.Return(_pending);
                _pending = null;
            }

            _stopped.Dispose();
            await _lease.DisposeAsync();
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
            await _lease.DeleteAsync(CancellationToken.None);
            throw Failures.DigestMismatch();
        }

        var staged = await _lease.HandOverAsync(CancellationToken.None);
        UploadResult result;
        try
        {
            result = await _sessions.Files.CommitStagedAsync(staged, session, sha256, _origin, CancellationToken.None);
        }
        catch
        {
            await staged.DisposeAsync();
            await _lease.DeleteAsync(CancellationToken.None);
            throw;
        }

        await staged.DisposeAsync();
        _session = await _lease.SaveAsync(
            session with
            {
                Length = session.Offset,
                HashState = [],
                Completed = new CompletedUpload(result.File.Object, result.Replaced),
                ExpiresAt = _sessions.Time.GetUtcNow() + _sessions.Expiry,
            },
            CancellationToken.None);
        return new UploadSessionOutcome(_session, result);
    }

    // The request ended early: keep every byte that reached the store, none that did not.
    private async ValueTask KeepWhatArrivedAsync()
    {
        try
        {
            await FlushPendingAsync(CancellationToken.None);
        }
        catch (Exception ex) when (ex is FileTransferException or IOException)
        {
            _pendingLength = 0; // a full disk: what did not fit is not kept
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
        await FlushPendingAsync(cancellationToken);
        _session = await _lease.SaveAsync(
            _session with
            {
                Offset = _session.Offset + _written,
                HashState = _hash.Export(),
                ExpiresAt = _sessions.Time.GetUtcNow() + _sessions.Expiry,
            },
            cancellationToken);
        _written = 0;
    }

    private int Gather(ReadOnlySpan<byte> bytes)
    {
        _pending ??= ArrayPool<byte>.Shared.Rent(Upload.BlockSize);
        var taken = Math.Min(Upload.BlockSize - _pendingLength, bytes.Length);
        bytes[..taken].CopyTo(_pending.AsSpan(_pendingLength));
        _pendingLength += taken;
        return taken;
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask FlushPendingAsync(CancellationToken cancellationToken)
    {
        if (_pendingLength > 0)
        {
            await WriteAsync(_pending.AsMemory(0, _pendingLength), cancellationToken);
            _pendingLength = 0;
        }
    }

    // Hashed only once written: the hash state always covers exactly the bytes the store holds.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask WriteAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
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
