using System.Buffers;
using System.Runtime.CompilerServices;
using System.Security.Cryptography;

namespace FileTransfer.Core;

/// <summary>
/// One upload on its way into the backend, the same for every protocol: the size limit is checked
/// as bytes arrive, SHA-256 and length are computed on the fly, and small pieces are gathered into
/// one pooled block so that the cost per byte does not depend on how the client cut the file. The
/// bytes sit in a staged object no client can see; <see cref="FileOperations.CommitAsync(Upload, CancellationToken)"/>
/// verifies them and makes them the current version. Disposing an uncommitted upload discards
/// them and leaves the previous version untouched.
/// </summary>
public sealed class Upload : IAsyncDisposable
{
    /// <summary>Bytes gathered before each write to the backend.</summary>
    public const int BlockSize = 256 * 1024;

    private readonly IncrementalHash _hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
    private readonly long _maxBytes;
    private byte[]? _pending;
    private int _pendingLength;
    private byte[]? _sha256;

    internal Upload(UploadRequest request, IStagedObject staged, long maxBytes)
    {
        Request = request;
        Staged = staged;
        _maxBytes = maxBytes;
    }

    /// <summary>What was asked for: the name, and the conditions the commit checks again.</summary>
    public UploadRequest Request { get; }

    public string Name => Request.Name;

    /// <summary>Bytes received so far.</summary>
    public long Length { get; private set; }

    internal IStagedObject Staged { get; }

    /// <summary>Who uploads, over which protocol: for its event and the hooks.</summary>
    internal ChangeOrigin Origin { get; init; }

    /// <summary>
    /// Appends one piece of the body; refuses the piece that would pass the size limit
    /// (<see cref="ErrorReason.FileTooLarge"/>).
    /// </summary>
    // Pooled state machines: a gRPC upload calls this once per chunk and waits on the backend once
    // per block, which otherwise allocates a box for each of the three awaiting methods.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask AppendAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        if (_sha256 is not null)
        {
            throw new InvalidOperationException("The upload is sealed: its body has ended.");
        }

        if (Length + bytes.Length > _maxBytes)
        {
            throw Failures.TooLarge(_maxBytes);
        }

        Length += bytes.Length;

        // Top up a partly filled block first, so that every write but the last is a whole block or more.
        if (_pendingLength > 0 || bytes.Length < BlockSize)
        {
            var taken = Gather(bytes.Span);
            bytes = bytes[taken..];
            if (_pendingLength < BlockSize)
            {
                return;
            }

            await FlushPendingAsync(cancellationToken);
        }

        if (bytes.Length >= BlockSize)
        {
            await WriteAsync(bytes, cancellationToken);
        }
        else if (!bytes.IsEmpty)
        {
            Gather(bytes.Span);
        }
    }

    // Copies what fits of bytes into the pending block; returns how many bytes it took.
    private int Gather(ReadOnlySpan<byte> bytes)
    {
        _pending ??= ArrayPool<byte>.Shared.Rent(BlockSize);
        var taken = Math.Min(BlockSize - _pendingLength, bytes.Length);
        bytes[..taken].CopyTo(_pending.AsSpan(_pendingLength));
        _pendingLength += taken;
        return taken;
    }

    /// <summary>Streams <paramref name="source"/> to its end into the upload through one pooled buffer.</summary>
    public async Task CopyFromAsync(Stream source, CancellationToken cancellationToken)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(BlockSize);
        try
        {
            int read;
            // Filling the buffer before each write keeps the backend's writes few on fast links.
            while ((read = await source.ReadAtLeastAsync(buffer.AsMemory(0, BlockSize), BlockSize, throwOnEndOfStream: false, cancellationToken)) > 0)
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
    /// Ends the body: the last bytes are written and the digest is final; the staged bytes wait for
    /// the commit. A request that stages several files (multipart) seals each before the next, so
    /// that it holds one open file, not one per part.
    /// </summary>
    public async ValueTask SealAsync(CancellationToken cancellationToken)
    {
        if (_sha256 is not null)
        {
            return;
        }

        await FlushPendingAsync(cancellationToken);
        _sha256 = _hash.GetHashAndReset();
        ReturnPending();
        await Staged.SealAsync(cancellationToken);
    }

    /// <summary>
    /// The checks before a commit, with no lock held: every byte written, the declared length and
    /// the expected digest verified. Returns the SHA-256 of the bytes.
    /// </summary>
    internal async ValueTask<byte[]> VerifyAsync(CancellationToken cancellationToken)
    {
        if (Request.DeclaredLength is { } declared && declared != Length)
        {
            throw Failures.SizeMismatch(declared, Length);
        }

        await SealAsync(cancellationToken);
        var sha256 = _sha256!;
        if (Request.ExpectedSha256 is { } expected && !CryptographicOperations.FixedTimeEquals(expected, sha256))
        {
            throw Failures.DigestMismatch();
        }

        return sha256;
    }

    public async ValueTask DisposeAsync()
    {
        _hash.Dispose();
        ReturnPending();
        await Staged.DisposeAsync();
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
        await Staged.WriteAsync(bytes, cancellationToken);
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
