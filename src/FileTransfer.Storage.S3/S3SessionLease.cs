using System.Buffers;
using Amazon.S3.Model;
using FileTransfer.Core;

namespace FileTransfer.Storage.S3;

/// <summary>
/// One writer's hold on a session in the bucket. Bytes gather in one pooled part buffer, which
/// starts with the saved tail; each full part goes to the session's multipart upload. A save writes
/// what is left in the buffer as a new tail object, then the record naming the parts and that tail:
/// the record never names bytes that are not durable. Parts uploaded but never saved are not in the
/// record: the next writer uploads its own under the same numbers, and the completion names parts
/// by ETag, so a stray part can never end up in the file. The lease is renewed before every step
/// that changes the store; a writer that lost it (a stall past its expiry, then a takeover) is
/// refused at its next step.
/// </summary>
internal sealed class S3SessionLease : IUploadSessionLease
{
    private readonly S3UploadSessionStore _store;
    private readonly NameLease _lease;
    private readonly List<S3SessionPart> _parts;
    private readonly string _key;
    private S3SessionRecord _record;
    private string? _uploadId;
    private byte[]? _buffer;
    private int _filled;
    private bool _tailLoaded;
    private bool _changed;
    private bool _broken;
    private bool _storeFailed;
    private UploadSession? _unsaved;

    public S3SessionLease(S3UploadSessionStore store, S3SessionRecord record, NameLease lease)
    {
        _store = store;
        _record = record;
        _lease = lease;
        _parts = [.. record.Parts];
        _uploadId = record.UploadId;
        _key = store.Bucket.KeyOf(record.Name) ?? throw new InvalidOperationException("A session's name always fits a key: it was checked at creation.");
        Session = record.ToSession();
    }

    public UploadSession Session { get; private set; }

    private int PartSize => _store.PartSize;

    // Where the buffer starts in the file: after every part that counts.
    private long PartsEnd => _parts.Sum(p => (long)p.Size);

    public async ValueTask WriteAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        if (_broken)
        {
            throw new InvalidOperationException("A write failed after sending a part: only a new lease goes on from the saved state.");
        }

        ThrowIfStoreFailed();
        try
        {
            await _store.Leases.KeepAsync(_lease, cancellationToken);
            await LoadTailAsync(cancellationToken);
        }
        catch (Exception ex)
        {
            NoteFailure(ex);
            throw;
        }

        var filledBefore = _filled;
        var partsBefore = _parts.Count;
        _changed = true;
        try
        {
            while (bytes.Length > 0)
            {
                var taken = Math.Min(PartSize - _filled, bytes.Length);
                bytes.Span[..taken].CopyTo(_buffer.AsSpan(_filled));
                _filled += taken;
                bytes = bytes[taken..];
                if (_filled == PartSize)
                {
                    await UploadPartAsync(cancellationToken);
                }
            }
        }
        catch (Exception ex)
        {
            NoteFailure(ex);

            // Nothing sent yet: the buffer still holds what it held, and the write counts for nothing.
            // Once a part went up, earlier bytes left the buffer: only the saved state is certain.
            if (_parts.Count == partsBefore)
            {
                _filled = filledBefore;
            }
            else
            {
                _broken = true;
            }

            throw;
        }
    }

    public async ValueTask<UploadSession> SaveAsync(UploadSession session, CancellationToken cancellationToken)
    {
        try
        {
            _unsaved = null;
            ThrowIfStoreFailed();
            await _store.Leases.KeepAsync(_lease, cancellationToken);
            var previousTail = _record.TailKey;
            S3SessionRecord record;
            if (session.Completed is not null)
            {
                // The bytes are the file now: the record keeps only what a late client asks for.
                record = new S3SessionRecord(session);
                _parts.Clear();
                _uploadId = null;
                ReturnBuffer();
            }
            else
            {
                // Nothing written under this lease: the saved tail stays as it is, not even read.
                var unchanged = !_changed && session.Offset == _record.Offset;
                if (!unchanged)
                {
                    await KeepUpToAsync(session.Offset, cancellationToken);
                }

                var (tailKey, tailLength) = unchanged ? (_record.TailKey, _record.TailLength) : (await PutTailAsync(cancellationToken), _filled);
                record = new S3SessionRecord(session) { UploadId = _uploadId, Parts = [.. _parts], TailKey = tailKey, TailLength = tailLength };
            }

            await _store.PutRecordAsync(record, cancellationToken);
            _record = record;
            _changed = false;
            _broken = false;
            Session = record.ToSession();
            if (previousTail is not null && previousTail != record.TailKey)
            {
                await TryDeleteAsync(previousTail);
            }

            return Session;
        }
        catch (Exception ex) when (S3Failures.IsUnavailable(ex) || ex is StorageReadException)
        {
            // Kept to be saved once the store answers, if the lease ends before (see DisposeAsync).
            NoteFailure(ex);
            _unsaved = session;
            throw;
        }
    }

    public async ValueTask<IStagedObject> HandOverAsync(CancellationToken cancellationToken)
    {
        await _store.Leases.KeepAsync(_lease, cancellationToken);
        await KeepUpToAsync(_record.Offset, cancellationToken);
        if (_parts.Count == 0)
        {
            // Never filled a part: one PutObject of the tail at the commit, as for any small upload.
            var buffer = _buffer;
            _buffer = null;
            return S3StagedObject.Resumed(_store.Backend, _record.Name, _key, null, [], buffer, _filled, _record.Offset);
        }

        if (_filled > 0)
        {
            await UploadPartAsync(cancellationToken); // the tail is the last part, which may be short
        }

        // Its commit completes the upload; should the commit fail, the upload stays the session's.
        return S3StagedObject.Resumed(_store.Backend, _record.Name, _key, _uploadId, [.. _parts.Select(p => new PartETag(p.Number, p.ETag))], null, 0, _record.Offset);
    }

    public async ValueTask DeleteAsync(CancellationToken cancellationToken)
    {
        ReturnBuffer();
        _unsaved = null;

        // The bytes first, the record last: a failure in between leaves a record that a later
        // delete (the sweeper's) finds again, never bytes that no record names.
        foreach (var uploadId in new[] { _uploadId, _record.UploadId }.OfType<string>().Distinct(StringComparer.Ordinal))
        {
            await _store.Backend.AbortAsync(_key, uploadId);
        }

        var recordKey = _store.RecordKey(_record.Id);
        foreach (var key in (await _store.KeysOfAsync(_record.Id, cancellationToken)).Where(k => k != recordKey))
        {
            await _store.Bucket.Client.DeleteObjectAsync(_store.Bucket.Name, key, cancellationToken);
        }

        await _store.Bucket.Client.DeleteObjectAsync(_store.Bucket.Name, recordKey, cancellationToken);
    }

    /// <summary>
    /// Ends the lease. Bytes written but not saved need no undoing: the record does not name them.
    /// A save the store failed (the request was cut by an outage) is not given up, though: the lease
    /// stays held with its buffer, within the backend's budget for held bytes, and the save runs
    /// again once the store answers (or at once when the session's client is back here first),
    /// then the lease is released. A store that is only briefly away then loses nothing that reached
    /// it, and the same client resumes at once.
    /// </summary>
    public async ValueTask DisposeAsync()
    {
        if (_unsaved is { } unsaved && !_broken && _store.Backend.TryHold(_buffer?.Length ?? 0))
        {
            var held = _buffer?.Length ?? 0;
            Log.SessionSaveHeld(_store.Logger, _record.Id, _filled);
            _store.Bucket.Cleanup.Add(S3UploadSessionStore.CleanupKey(_record.Id), () => SaveHeldAsync(unsaved, held));
            return;
        }

        ReturnBuffer();
        await _store.Leases.ReleaseAsync(_lease, tryNow: !_storeFailed);
    }

    // The save of a lease that ended while the store failed: tried until the store answers (its
    // failure keeps it queued), given up when anything else goes wrong (the lease taken over by then).
    private async Task SaveHeldAsync(UploadSession unsaved, int held)
    {
        try
        {
            _storeFailed = false;
            await SaveAsync(unsaved, CancellationToken.None);
        }
        catch (Exception ex) when (!S3Failures.IsUnavailable(ex) && ex is not StorageReadException)
        {
            // Not the store (the lease was taken over meanwhile): the saved state stays what it was.
        }

        _unsaved = null;
        _store.Backend.ReleaseHeld(held);
        ReturnBuffer();
        await _store.Leases.ReleaseAsync(_lease);
    }

    // Once the store failed under this lease, the request's later steps (the saves of a cut request)
    // fail at once instead of each waiting out the store's deadline again; the save is kept for when it answers.
    private void ThrowIfStoreFailed()
    {
        if (_storeFailed)
        {
            throw Failures.Unavailable("The object store failed during this request; what reached it is saved once it answers again.");
        }
    }

    private void NoteFailure(Exception exception) =>
        _storeFailed |= S3Failures.IsUnavailable(exception) || exception is StorageReadException;

    /// <summary>
    /// Drops what was written past <paramref name="offset"/>: within the buffer, by shortening it;
    /// back to the saved offset, by going back to the saved parts and tail. Nothing else is asked
    /// for (the core saves what it wrote, or hands over what was saved).
    /// </summary>
    private async Task KeepUpToAsync(long offset, CancellationToken cancellationToken)
    {
        await LoadTailAsync(cancellationToken);
        var partsEnd = PartsEnd;
        if (offset >= partsEnd && offset <= partsEnd + _filled)
        {
            _filled = (int)(offset - partsEnd);
            return;
        }

        if (offset != _record.Offset)
        {
            throw new InvalidOperationException($"Only bytes past the last part ({partsEnd}) or past the saved offset ({_record.Offset}) can be dropped, not past {offset}.");
        }

        _parts.Clear();
        _parts.AddRange(_record.Parts);
        _tailLoaded = false;
        _changed = false;
        await LoadTailAsync(cancellationToken);
    }

    // The buffer, holding the saved tail, before the first byte is added or handed over.
    private async Task LoadTailAsync(CancellationToken cancellationToken)
    {
        if (_tailLoaded)
        {
            return;
        }

        _buffer ??= ArrayPool<byte>.Shared.Rent(_store.PartSize);
        _filled = 0;
        if (_record.TailKey is { } tailKey && _record.TailLength > 0)
        {
            using var response = await _store.Bucket.Client.GetObjectAsync(_store.Bucket.Name, tailKey, cancellationToken);
            await response.ResponseStream.ReadExactlyAsync(_buffer.AsMemory(0, _record.TailLength), cancellationToken);
            _filled = _record.TailLength;
        }

        _tailLoaded = true;
    }

    private async Task UploadPartAsync(CancellationToken cancellationToken)
    {
        await _store.Leases.KeepAsync(_lease, cancellationToken);
        if (_uploadId is null)
        {
            // Not one of the backend's own uploads in progress: the record names it, which is what keeps the sweep away.
            var started = await _store.Bucket.Client.InitiateMultipartUploadAsync(
                new InitiateMultipartUploadRequest { BucketName = _store.Bucket.Name, Key = _key },
                cancellationToken);
            _uploadId = started.UploadId;
        }

        var number = _parts.Count + 1;
        var etag = await _store.Backend.UploadPartAsync(_key, _uploadId, number, _buffer.AsMemory(0, _filled), cancellationToken);
        _parts.Add(new S3SessionPart(number, etag, _filled));
        _filled = 0;
    }

    /// <summary>The buffer's bytes as a new tail object (null when it is empty).</summary>
    private async Task<string?> PutTailAsync(CancellationToken cancellationToken)
    {
        if (_filled == 0)
        {
            return null;
        }

        var key = _store.NewTailKey(_record.Id);
        using var body = new MemoryStream(_buffer!, 0, _filled, writable: false);
        await _store.Bucket.Client.PutObjectAsync(
            new PutObjectRequest { BucketName = _store.Bucket.Name, Key = key, InputStream = body, AutoCloseStream = false },
            cancellationToken);
        return key;
    }

    // A tail the record no longer names; one left behind goes with the session's delete.
    private async Task TryDeleteAsync(string key)
    {
        try
        {
            await _store.Bucket.Client.DeleteObjectAsync(_store.Bucket.Name, key, CancellationToken.None);
        }
        catch (FileTransferException ex) when (S3Failures.IsUnavailable(ex))
        {
            Log.SessionTailDeleteFailed(_store.Logger, key, ex);
        }
    }

    private void ReturnBuffer()
    {
        if (_buffer is not null)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = null;
        }

        _filled = 0;
        _tailLoaded = false;
    }
}
