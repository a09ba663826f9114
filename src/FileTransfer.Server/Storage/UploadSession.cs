using System.Buffers;
using System.Runtime.CompilerServices;
using System.Security.Cryptography;
using Microsoft.Win32.SafeHandles;

namespace FileTransfer.Server.Storage;

/// <summary>
/// One upload on its way to disk: bytes go to a hidden temporary file in the target's folder
/// (same file system, so the commit is one rename) while SHA-256 and size are computed on the
/// fly. Disposing an uncommitted session deletes the temporary file: the previous version of the
/// target is never touched until <see cref="CommitAsync"/> renames over it.
/// </summary>
internal sealed class UploadSession : IAsyncDisposable
{
    private const int CopyBufferSize = 256 * 1024;

    private readonly UploadRequest _request;
    private readonly FileStore _store;
    private readonly long _maxBytes;
    private readonly string _tempPath;
    private readonly IReadOnlyList<string> _createdFolders;
    private readonly IncrementalHash _hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
    private SafeFileHandle? _file;
    private byte[]? _pending;
    private int _pendingLength;
    private long _written;
    private byte[]? _sha256;
    private bool _committed;

    internal UploadSession(FileStore store, UploadRequest request, long maxBytes, string tempPath, SafeFileHandle file, IReadOnlyList<string> createdFolders)
    {
        _store = store;
        _request = request;
        _maxBytes = maxBytes;
        _tempPath = tempPath;
        _file = file;
        _createdFolders = createdFolders;
    }

    /// <summary>What was asked for: the target, and the preconditions the commit checks again.</summary>
    public UploadRequest Request => _request;

    public StoragePath Target => _request.Target;

    /// <summary>Bytes received so far.</summary>
    public long Length { get; private set; }

    /// <summary>
    /// Appends one piece of the body; refuses the piece that would pass the size limit. Small
    /// pieces (a gRPC client may send chunks of a few bytes) are gathered in one pooled buffer and
    /// written together, so that the cost per byte does not depend on how the client cut the file.
    /// </summary>
    // Pooled state machines: a gRPC upload calls this once per chunk and waits on the disk once
    // per 256 KiB, which otherwise allocates a box for each of the three awaiting methods.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask AppendAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        if (_sha256 is not null)
        {
            throw new InvalidOperationException("The upload is sealed: its body has ended.");
        }

        if (Length + bytes.Length > _maxBytes)
        {
            throw new UploadException(UploadError.TooLarge, $"The file is larger than the limit of {_maxBytes} bytes.");
        }

        Length += bytes.Length;
        if (bytes.Length >= CopyBufferSize)
        {
            await FlushPendingAsync(cancellationToken);
            await WriteAsync(bytes, cancellationToken);
            return;
        }

        _pending ??= ArrayPool<byte>.Shared.Rent(CopyBufferSize);
        var taken = Math.Min(CopyBufferSize - _pendingLength, bytes.Length);
        bytes.Span[..taken].CopyTo(_pending.AsSpan(_pendingLength));
        _pendingLength += taken;
        if (_pendingLength == CopyBufferSize)
        {
            await FlushPendingAsync(cancellationToken);
            bytes.Span[taken..].CopyTo(_pending);
            _pendingLength = bytes.Length - taken;
        }
    }

    /// <summary>Streams <paramref name="source"/> to the end into the file through one pooled buffer.</summary>
    public async Task CopyFromAsync(Stream source, CancellationToken cancellationToken)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(CopyBufferSize);
        try
        {
            int read;
            // Filling the buffer before each write keeps the write syscalls few on fast links.
            while ((read = await source.ReadAtLeastAsync(buffer.AsMemory(0, CopyBufferSize), CopyBufferSize, throwOnEndOfStream: false, cancellationToken)) > 0)
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
    /// Ends the body: the last bytes are written, the digest is final and the temporary file is
    /// closed, but stays on disk for <see cref="CommitAsync"/> (which reopens it) or is deleted on
    /// dispose. A request that stages several files (multipart) seals each before the next, so it
    /// holds one open file, not one per part.
    /// </summary>
    public async ValueTask SealAsync(CancellationToken cancellationToken)
    {
        if (_sha256 is not null)
        {
            return;
        }

        await FlushPendingAsync(cancellationToken);
        _sha256 = _hash.GetHashAndReset();
        _file?.Dispose();
        _file = null;
        ReturnPending();
    }

    /// <summary>
    /// Verifies length and digest, flushes to disk and renames over the target in one step.
    /// Returns the stored file, its SHA-256, and whether it replaced an existing file.
    /// </summary>
    public async Task<UploadResult> CommitAsync(CancellationToken cancellationToken) =>
        (await _store.CommitAsync([this], cancellationToken))[0];

    internal string TempPath => _tempPath;

    /// <summary>
    /// The part of a commit that needs no lock: the length and digest checks, and the bytes
    /// flushed to disk. The file is closed afterwards, so that a commit of many staged files
    /// holds one open file at a time. Returns the SHA-256 of the bytes.
    /// </summary>
    internal async Task<byte[]> PrepareCommitAsync(CancellationToken cancellationToken)
    {
        if (_request.DeclaredLength is { } declared && declared != Length)
        {
            throw new UploadException(UploadError.LengthMismatch, $"{Length} bytes arrived but {declared} were declared.");
        }

        await FlushPendingAsync(cancellationToken);
        var sha256 = _sha256 ??= _hash.GetHashAndReset();
        if (_request.ExpectedSha256 is { } expected && !CryptographicOperations.FixedTimeEquals(expected, sha256))
        {
            throw new UploadException(UploadError.DigestMismatch, "The SHA-256 of the received bytes does not match the digest the client announced.");
        }

        // A sealed file is opened again for the flush.
        using (var file = _file ?? File.OpenHandle(_tempPath, FileMode.Open, FileAccess.Write, FileShare.None))
        {
            RandomAccess.FlushToDisk(file);
        }

        _file = null;
        ReturnPending();
        return sha256;
    }

    internal void MarkCommitted() => _committed = true;

    public ValueTask DisposeAsync()
    {
        _file?.Dispose();
        _file = null;
        _hash.Dispose();
        ReturnPending();
        if (!_committed)
        {
            _store.Discard(_tempPath, _createdFolders);
        }

        return ValueTask.CompletedTask;
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

    // Hashed as written, in order: one digest update per block rather than per client chunk.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask WriteAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        _hash.AppendData(bytes.Span);
        try
        {
            await RandomAccess.WriteAsync(_file!, bytes, _written, cancellationToken);
            _written += bytes.Length;
        }
        catch (IOException ex) when (FileStore.IsDiskFull(ex))
        {
            throw FileStore.DiskFull(ex);
        }
    }

    private void ReturnPending()
    {
        if (_pending is not null)
        {
            ArrayPool<byte>.Shared.Return(_pending);
            _pending = null;
            _pendingLength = 0;
        }
    }
}

/// <summary>A committed upload.</summary>
internal sealed record UploadResult(StoredFile File, byte[] Sha256, bool Replaced);
