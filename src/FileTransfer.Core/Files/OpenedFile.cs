namespace FileTransfer.Core;

/// <summary>
/// A version opened for a download, as both protocols send it: its description, its digest once
/// known (<see cref="FileOperations.DigestAsync"/>) and its bytes all come from one open. Dispose
/// it when the response has been sent.
/// </summary>
public sealed class OpenedFile : IAsyncDisposable
{
    internal OpenedFile(IOpenedObject opened, FileVersion version)
    {
        Opened = opened;
        Version = version;
        Sha256 = opened.Object.Sha256;
    }

    public FileVersion Version { get; }

    /// <summary>The SHA-256 of these bytes once known (the backend had it, or the core computed it from this open).</summary>
    public byte[]? Sha256 { get; internal set; }

    /// <inheritdoc cref="IOpenedObject.PhysicalPath"/>
    public string? PhysicalPath => Opened.PhysicalPath;

    internal IOpenedObject Opened { get; }

    /// <summary>The download this version was opened for, counted as its bytes are read; null when it is not one (HEAD, file info).</summary>
    internal TransferMetrics.Transfer? Transfer { get; init; }

    /// <summary>
    /// <inheritdoc cref="IOpenedObject.OpenReadAsync" path="/summary"/> The bytes read through it are
    /// the download's: counted for its transfer as they are read.
    /// </summary>
    public async ValueTask<Stream> OpenReadAsync(long offset, long count, CancellationToken cancellationToken)
    {
        var bytes = await Opened.OpenReadAsync(offset, count, cancellationToken);
        return Transfer is { } transfer ? new CountedReadStream(bytes, transfer) : bytes;
    }

    /// <inheritdoc cref="OpenReadAsync(long, long, CancellationToken)"/>
    public ValueTask<Stream> OpenReadAsync(ReadRange range, CancellationToken cancellationToken) =>
        OpenReadAsync(range.Offset, range.Length, cancellationToken);

    public ValueTask DisposeAsync() => Opened.DisposeAsync();
}
