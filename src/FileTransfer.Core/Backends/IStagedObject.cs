namespace FileTransfer.Core;

/// <summary>
/// A write on its way into a backend, invisible to clients until <see cref="IStorageBackend.CommitAsync"/>
/// makes it the current version. Disposing it without a commit discards every byte it took.
/// </summary>
public interface IStagedObject : IAsyncDisposable
{
    /// <summary>The name it will be committed under.</summary>
    string Name { get; }

    /// <summary>Bytes written so far.</summary>
    long Length { get; }

    /// <summary>Appends <paramref name="bytes"/> (the core hands over blocks of at least 256 KiB but the last).</summary>
    /// <exception cref="FileTransferException"><see cref="ErrorReason.StorageFull"/> when the medium is full.</exception>
    ValueTask WriteAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken);

    /// <summary>
    /// No more bytes will come: release what is not needed until the commit (an open file, a part
    /// buffer), so that a request staging many files holds one at a time.
    /// </summary>
    ValueTask SealAsync(CancellationToken cancellationToken);
}
