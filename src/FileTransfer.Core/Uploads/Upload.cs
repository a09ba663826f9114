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
public sealed class Upload : IAsyncDisposable, IBlockSink
{
    /// <summary>Bytes gathered before each write to the backend.</summary>
    public const int BlockSize = BlockWriter.BlockSize;

    private readonly IncrementalHash _hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
    private readonly long _maxBytes;
    private readonly BlockWriter _blocks;
    private readonly TransferMetrics.Transfer? _transfer;
    private byte[]? _sha256;

    internal Upload(UploadRequest request, IStagedObject staged, long maxBytes, TransferMetrics.Transfer? transfer, QuotaHold? hold = null)
    {
        _transfer = transfer;
        Request = request;
        Staged = staged;
        _maxBytes = maxBytes;
        Hold = hold;
        _blocks = new BlockWriter(this);
    }

    /// <summary>What was asked for: the name, and the conditions the commit checks again.</summary>
    public UploadRequest Request { get; }

    public string Name => Request.Name;

    /// <summary>Bytes received so far.</summary>
    public long Length { get; private set; }

    internal IStagedObject Staged { get; }

    /// <summary>Who uploads, over which protocol: for its event and the hooks.</summary>
    internal ChangeOrigin Origin { get; init; }

    /// <summary>Its reservation in the quotas over its name, or null when none applies.</summary>
    internal QuotaHold? Hold { get; }

    /// <summary>
    /// Appends one piece of the body; refuses the piece that would pass the size limit
    /// (<see cref="ErrorReason.FileTooLarge"/>).
    /// </summary>
    // Pooled state machines: gRPC calls this once per chunk.
    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder))]
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

        // Refused as soon as the bytes pass a quota's room (an upload that declared its length
        // reserved it all at the start).
        if (Hold is not null && Hold.Needs(Length + bytes.Length))
        {
            await Hold.EnsureAsync(Length + bytes.Length, cancellationToken, Request.DeclaredLength is null ? Quotas.GrowthStep : 0);
        }

        Length += bytes.Length;
        _transfer?.Add(bytes.Length);
        await _blocks.AppendAsync(bytes, cancellationToken);
    }

    /// <summary>Streams <paramref name="source"/> to its end into the upload through one pooled buffer.</summary>
    public Task CopyFromAsync(Stream source, CancellationToken cancellationToken) =>
        BlockWriter.CopyAsync(source, this, static (upload, bytes, token) => upload.AppendAsync(bytes, token), cancellationToken);

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

        await _blocks.FlushAsync(cancellationToken);
        _sha256 = _hash.GetHashAndReset();
        _blocks.Dispose();
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
        _blocks.Dispose();
        await Staged.DisposeAsync();
        await (Hold?.ReleaseAsync() ?? ValueTask.CompletedTask);
    }

    // Hashed as written, in order: one digest update per block rather than per client chunk.
    ValueTask IBlockSink.WriteBlockAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        _hash.AppendData(bytes.Span);
        return Staged.WriteAsync(bytes, cancellationToken);
    }
}
