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

    /// <inheritdoc cref="IOpenedObject.OpenReadAsync"/>
    public ValueTask<Stream> OpenReadAsync(long offset, long count, CancellationToken cancellationToken) =>
        Opened.OpenReadAsync(offset, count, cancellationToken);

    /// <inheritdoc cref="OpenReadAsync(long, long, CancellationToken)"/>
    public ValueTask<Stream> OpenReadAsync(ReadRange range, CancellationToken cancellationToken) =>
        Opened.OpenReadAsync(range.Offset, range.Length, cancellationToken);

    public ValueTask DisposeAsync() => Opened.DisposeAsync();
}
