namespace FileTransfer.Client.Transport;

/// <summary>
/// One protocol's way to reach the server. Everything else (resuming, digests, retries,
/// progress) is the same for every protocol and lives in <see cref="Transfers"/>.
/// Every failure is a <see cref="FileTransferException"/>.
/// </summary>
internal interface IFileTransport : IDisposable
{
    Task<RemoteFileInfo> GetInfoAsync(string name, CancellationToken cancellationToken);

    /// <summary>Every file whose name starts with <paramref name="prefix"/>, in name order, fetched page by page as it is enumerated.</summary>
    IAsyncEnumerable<RemoteFileInfo> ListAsync(string? prefix, int pageSize, CancellationToken cancellationToken);

    Task DeleteAsync(string name, string? ifMatch, CancellationToken cancellationToken);

    /// <summary>
    /// Starts sending <paramref name="name"/> from <paramref name="offset"/>. With
    /// <paramref name="ifRange"/> the rest is sent only while the file still has that ETag,
    /// otherwise the whole file (RFC 9110 13.1.5 semantics, for both protocols): the response
    /// says where its body starts. An offset past the end fails with
    /// <see cref="FileTransferErrorKind.RangeNotSatisfiable"/>.
    /// </summary>
    Task<DownloadResponse> OpenDownloadAsync(string name, long offset, string? ifRange, CancellationToken cancellationToken);

    /// <summary>Streams <paramref name="content"/> as the request says; <paramref name="sent"/> is told every chunk's size.</summary>
    Task<UploadResponse> UploadAsync(UploadRequest request, Stream content, Action<int> sent, CancellationToken cancellationToken);

    /// <summary>Begins a resumable upload session (REST: tus creation at api/uploads; gRPC: StartUpload).</summary>
    Task<UploadSessionState> StartUploadSessionAsync(UploadRequest request, CancellationToken cancellationToken);

    /// <summary>The session's durable offset (REST: tus HEAD; gRPC: GetUploadStatus); the same ids on both protocols.</summary>
    Task<UploadSessionState> GetUploadSessionAsync(string uploadId, CancellationToken cancellationToken);

    /// <summary>The events under <paramref name="prefix"/> after <paramref name="after"/> (or from now), until the server ends the stream (REST: SSE at api/events; gRPC: WatchEvents).</summary>
    IAsyncEnumerable<FileTransferEvent> WatchAsync(string? prefix, string? after, CancellationToken cancellationToken);

    /// <summary>Sends <paramref name="content"/> from <paramref name="offset"/> to <paramref name="length"/>, which completes the upload.</summary>
    Task<UploadSessionState> FinishUploadSessionAsync(string uploadId, long offset, long length, Stream content, int chunkSize, Action<int> sent, CancellationToken cancellationToken);
}

/// <summary>A resumable upload as the server holds it: the bytes it has durably, and whether the file is stored.</summary>
internal sealed record UploadSessionState(string Id, long Offset, bool Complete);

/// <summary>An upload's parameters; <see cref="Length"/> and <see cref="Sha256"/> are null when unknown.</summary>
internal sealed record UploadRequest(string Name, long? Length, byte[]? Sha256, bool Overwrite, int ChunkSize);

/// <summary>What the server stored; <see cref="Created"/> is null when the protocol does not say.</summary>
internal sealed record UploadResponse(RemoteFileInfo File, bool? Created);

/// <summary>The start of a download: the file's description and the bytes from <see cref="Offset"/> on.</summary>
internal sealed class DownloadResponse(RemoteFileInfo file, long offset, IAsyncEnumerable<PooledChunk> body, IDisposable owner) : IDisposable
{
    public RemoteFileInfo File { get; } = file;

    /// <summary>Where <see cref="Body"/> starts: the requested offset, or 0 when the file changed since <c>ifRange</c>.</summary>
    public long Offset { get; } = offset;

    /// <summary>The bytes, chunk by chunk, each handed over to the caller, who returns it (<see cref="PooledChunk.Return"/>). Failures are <see cref="FileTransferException"/>.</summary>
    public IAsyncEnumerable<PooledChunk> Body { get; } = body;

    public void Dispose() => owner.Dispose();
}
