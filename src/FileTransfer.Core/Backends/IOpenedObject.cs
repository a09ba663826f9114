namespace FileTransfer.Core;

/// <summary>
/// One version of a file, opened once. Its description and every byte read from it belong to that
/// version: a replace or delete of the name while it is open never mixes in another version's bytes
/// (a read then fails instead, where the medium cannot keep the old version). Dispose it when the
/// transfer ends.
/// </summary>
public interface IOpenedObject : IAsyncDisposable
{
    /// <summary>The version, as it was when opened.</summary>
    StoredObject Object { get; }

    /// <summary>
    /// Where the version was opened from on this machine's file system, or null for a store with no
    /// local path. Only a label (PhysicalFileResult's file name, logs): once the name is replaced that
    /// path holds another version, so bytes are always read through <see cref="OpenReadAsync"/>.
    /// </summary>
    string? PhysicalPath { get; }

    /// <summary>
    /// A stream of <paramref name="count"/> bytes of this version from <paramref name="offset"/>,
    /// read in order. It ends after exactly <paramref name="count"/> bytes, or throws an
    /// <see cref="IOException"/> when the version can no longer be read whole.
    /// </summary>
    ValueTask<Stream> OpenReadAsync(long offset, long count, CancellationToken cancellationToken);
}
