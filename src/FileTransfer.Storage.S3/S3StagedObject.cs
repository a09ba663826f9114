using System.Buffers;
using Amazon.S3.Model;
using FileTransfer.Core;

namespace FileTransfer.Storage.S3;

/// <summary>
/// A write on its way into the bucket, invisible until the commit. Bytes gather in one pooled part
/// buffer (it grows from a quarter MiB to the part size, so a small file never rents a whole part);
/// each full part goes to a multipart upload, started with the first one. A file that ends before
/// filling one part stays in its buffer and is stored at commit with a single PutObject, which
/// carries its digest as metadata and checks the replaced version itself (<c>If-Match</c> /
/// <c>If-None-Match: *</c>); the backend bounds how many bytes such sealed buffers may hold, past
/// which they go to a multipart upload too. Disposing an uncommitted write aborts its multipart
/// upload: none of its bytes ever become visible.
/// </summary>
internal sealed class S3StagedObject : IStagedObject
{
    private readonly S3StorageBackend _backend;
    private readonly int _partSize;
    private readonly long? _declaredLength;
    private readonly List<PartETag> _parts = [];
    private byte[]? _buffer;
    private int _filled;
    private int _held;
    private bool _sealed;
    private bool _committed;
    private bool _storeFailed;
    private bool _session;

    public S3StagedObject(S3StorageBackend backend, string name, string key, int partSize, long? declaredLength)
    {
        _backend = backend;
        Name = name;
        Key = key;
        _partSize = partSize;
        _declaredLength = declaredLength;
    }

    /// <summary>
    /// The saved bytes of an upload session, sealed for the commit: the parts of its multipart upload,
    /// or, when it never filled a part, <paramref name="buffer"/> (pooled; now this object's) for a
    /// single PutObject. The commit then works exactly as for a streamed upload; disposed uncommitted,
    /// the multipart upload stays the session's (its delete aborts it).
    /// </summary>
    internal static S3StagedObject Resumed(S3StorageBackend backend, string name, string key, string? uploadId, IReadOnlyList<PartETag> parts, byte[]? buffer, int filled, long length)
    {
        var staged = new S3StagedObject(backend, name, key, PartSizes.MinPartBytes, declaredLength: null)
        {
            UploadId = uploadId,
            _buffer = buffer,
            _filled = filled,
            _sealed = true,
            _session = true,
        };
        staged._parts.AddRange(parts);
        staged.Length = length;
        return staged;
    }

    public string Name { get; }

    public long Length { get; private set; }

    internal string Key { get; }

    /// <summary>The multipart upload holding the bytes, or null while they are all in the buffer.</summary>
    internal string? UploadId { get; private set; }

    /// <summary>The parts uploaded so far, in order.</summary>
    internal IReadOnlyList<PartETag> Parts => _parts;

    /// <summary>The bytes of a write that stays a single PutObject (sealed, no multipart upload).</summary>
    internal ReadOnlyMemory<byte> Buffered => _buffer.AsMemory(0, _filled);

    public async ValueTask WriteAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        if (_sealed)
        {
            throw new InvalidOperationException("The staged object is sealed: its body has ended.");
        }

        while (bytes.Length > 0)
        {
            var space = MakeRoom(bytes.Length);
            var taken = Math.Min(space, bytes.Length);
            bytes.Span[..taken].CopyTo(_buffer.AsSpan(_filled));
            _filled += taken;
            Length += taken;
            bytes = bytes[taken..];
            if (_filled == _partSize)
            {
                await UploadPartAsync(cancellationToken);
            }
        }
    }

    /// <summary>
    /// The body has ended: the last part goes up, or, for a write that never filled a part, the
    /// buffer is kept for the single PutObject of the commit when the backend's budget allows.
    /// </summary>
    public async ValueTask SealAsync(CancellationToken cancellationToken)
    {
        if (_sealed)
        {
            return;
        }

        _sealed = true;
        if (UploadId is null && _backend.TryHold(_buffer?.Length ?? 0))
        {
            _held = _buffer?.Length ?? 0;
            return;
        }

        if (_filled > 0 || _parts.Count == 0)
        {
            await UploadPartAsync(cancellationToken);
        }

        ReturnBuffer();
    }

    /// <summary>After the commit made it visible: nothing is left to discard.</summary>
    internal void MarkCommitted()
    {
        _committed = true;
        ReturnBuffer();
    }

    public async ValueTask DisposeAsync()
    {
        ReturnBuffer();
        if (!_committed && !_session && UploadId is { } uploadId)
        {
            UploadId = null;

            // A store that just failed this write is not asked again now (the client would wait out its
            // deadline once more): the abort waits until it answers.
            await _backend.AbortAsync(Key, uploadId, tryNow: !_storeFailed);
        }
    }

    // Room for more bytes in the buffer: rented on the first write (the declared size when it is
    // smaller than a part), doubled while it is smaller than a part.
    private int MakeRoom(int wanted)
    {
        if (_buffer is null)
        {
            var first = _declaredLength is { } declared ? Math.Max(declared, 1) : Math.Max(wanted, Upload.BlockSize);
            _buffer = ArrayPool<byte>.Shared.Rent((int)Math.Min(_partSize, first));
        }
        else if (_filled == _buffer.Length && _buffer.Length < _partSize)
        {
            var larger = ArrayPool<byte>.Shared.Rent((int)Math.Min(_partSize, Math.Max((long)_buffer.Length * 2, _filled + (long)wanted)));
            _buffer.AsSpan(0, _filled).CopyTo(larger);
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = larger;
        }

        return Math.Min(_buffer.Length, _partSize) - _filled;
    }

    private async Task UploadPartAsync(CancellationToken cancellationToken)
    {
        try
        {
            UploadId ??= await _backend.StartMultipartAsync(Key, cancellationToken);
            var number = _parts.Count + 1;
            var etag = await _backend.UploadPartAsync(Key, UploadId, number, _buffer.AsMemory(0, _filled), cancellationToken);
            _parts.Add(new PartETag(number, etag));
            _filled = 0;
        }
        catch (FileTransferException ex) when (S3Failures.IsUnavailable(ex))
        {
            _storeFailed = true;
            throw;
        }
    }

    private void ReturnBuffer()
    {
        if (_held > 0)
        {
            _backend.ReleaseHeld(_held);
            _held = 0;
        }

        if (_buffer is not null)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = null;
            _filled = 0;
        }
    }
}
