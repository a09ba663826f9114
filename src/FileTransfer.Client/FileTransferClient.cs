using FileTransfer.Client.Transfers;
using FileTransfer.Client.Transport;
using FileTransfer.Client.Transport.Grpc;
using FileTransfer.Client.Transport.Rest;
using FileTransfer.Protos.V1;
using Grpc.Net.Client;

namespace FileTransfer.Client;

/// <summary>
/// A FileTransfer server over REST or gRPC (<see cref="FileTransferClientOptions.Protocol"/>), with
/// the same behaviour either way: downloads resume and are verified against the server's SHA-256,
/// uploads stream and are verified by the server before it commits them, and every failure is a
/// <see cref="FileTransferException"/> with a protocol-neutral <see cref="FileTransferException.Kind"/>.
/// </summary>
/// <remarks>
/// Thread-safe: one instance can run many transfers at once. File names are paths relative to the
/// server's storage root, '/' separated; with REST a full URL (a signed link from <c>POST /api/links</c>)
/// may be given instead of a name, and is then used as it is, without the API key.
/// </remarks>
public sealed class FileTransferClient : IDisposable
{
    /// <summary>The largest gRPC message accepted: chunks are 32 KiB by default; a server configured for larger ones still fits.</summary>
    internal const int MaxReceiveMessageSize = 16 * 1024 * 1024;

    private readonly IFileTransport _transport;
    private readonly FileTransferClientOptions _options;

    /// <summary>A client with its own connections, tuned for large transfers (HTTP/2 windows, keep-alive pings).</summary>
    /// <param name="options">Protocol, server, API key, TLS and transfer settings.</param>
    public FileTransferClient(FileTransferClientOptions options)
        : this(options, null)
    {
    }

    /// <summary>
    /// A client over <paramref name="httpClient"/> (e.g. from <c>IHttpClientFactory</c>), which it
    /// does not dispose. For gRPC it must speak HTTP/2 to the server; give it an infinite
    /// <see cref="HttpClient.Timeout"/>, or transfers longer than the timeout fail.
    /// </summary>
    /// <param name="httpClient">The connections to use.</param>
    /// <param name="options">Protocol, server, API key and transfer settings; not the TLS settings, which belong to <paramref name="httpClient"/>'s handler.</param>
    /// <exception cref="ArgumentException"><see cref="FileTransferClientOptions.TrustedCertificates"/> or <see cref="FileTransferClientOptions.AcceptAnyServerCertificate"/> is set.</exception>
    public FileTransferClient(HttpClient httpClient, FileTransferClientOptions options)
        : this(options, httpClient ?? throw new ArgumentNullException(nameof(httpClient)))
    {
    }

    internal FileTransferClient(IFileTransport transport, FileTransferClientOptions options)
    {
        options.Validate();
        _options = options.Clone();
        _transport = transport;
    }

    private FileTransferClient(FileTransferClientOptions options, HttpClient? httpClient)
        : this(CreateTransport(options, httpClient), options)
    {
    }

    /// <summary>The protocol this client speaks.</summary>
    public FileTransferProtocol Protocol => _options.Protocol;

    /// <summary>The server address requests go to.</summary>
    public Uri ServerAddress => _options.EffectiveAddress;

    /// <summary>The file name a download of <paramref name="nameOrLink"/> gets by default: the last segment of the name (of a signed link: of the name inside it).</summary>
    /// <param name="nameOrLink">A file name on the server, or a signed link.</param>
    public static string GetFileName(string nameOrLink) =>
        (Links.TryParse(nameOrLink, out var url) ? Links.NameOf(url) : nameOrLink).Split('/')[^1];

    /// <summary>Size, type, modification time, ETag and SHA-256 of a file (REST <c>HEAD</c>, gRPC <c>GetFileInfo</c>).</summary>
    /// <param name="name">The file's name (or, over REST, a signed link).</param>
    /// <param name="cancellationToken">Cancels the request.</param>
    public Task<RemoteFileInfo> GetInfoAsync(string name, CancellationToken cancellationToken = default) =>
        _transport.GetInfoAsync(name, cancellationToken);

    /// <summary>
    /// The files whose names start with <paramref name="prefix"/>, in ordinal name order. Pages are
    /// fetched as the enumeration reaches them, <see cref="FileTransferClientOptions.ListPageSize"/> files
    /// each: gRPC <c>ListFiles</c> follows <c>next_page_token</c>, REST the <c>Link: rel="next"</c> header, to the end.
    /// </summary>
    /// <param name="prefix">Only names starting with this, e.g. <c>videos/</c>; null for every file.</param>
    /// <param name="cancellationToken">Cancels the enumeration.</param>
    public IAsyncEnumerable<RemoteFileInfo> ListAsync(string? prefix = null, CancellationToken cancellationToken = default) =>
        _transport.ListAsync(prefix, _options.ListPageSize, cancellationToken);

    /// <summary>
    /// The changes on the server as they happen (gRPC <c>WatchEvents</c>, REST <c>GET api/events</c>):
    /// files created, replaced and deleted, uploads started, completed, cancelled and expired, of the
    /// names the key may read. Runs until cancelled; a cut stream is reopened after the last event
    /// received (<see cref="FileTransferClientOptions.MaxRetries"/> failures in a row at most).
    /// </summary>
    /// <param name="prefix">Only names starting with this, e.g. <c>videos/</c>; null for every file.</param>
    /// <param name="after">Resume after this event id (retained events first); null for events from now on.</param>
    /// <param name="cancellationToken">Ends the watch.</param>
    public IAsyncEnumerable<FileTransferEvent> WatchAsync(string? prefix = null, string? after = null, CancellationToken cancellationToken = default) =>
        Transfers.Watch.RunAsync(_transport, prefix, after, _options, cancellationToken);

    /// <summary>Deletes a file (REST <c>DELETE</c>, gRPC <c>DeleteFile</c>).</summary>
    /// <param name="name">The file's name (or, over REST, a signed link).</param>
    /// <param name="ifMatch">Delete only the version with this ETag (quotes included); otherwise fail with <see cref="FileTransferErrorKind.PreconditionFailed"/>.</param>
    /// <param name="cancellationToken">Cancels the request.</param>
    public Task DeleteAsync(string name, string? ifMatch = null, CancellationToken cancellationToken = default) =>
        _transport.DeleteAsync(name, ifMatch, cancellationToken);

    /// <summary>
    /// Downloads a file into <paramref name="destination"/> and verifies its SHA-256 against the one
    /// the server announced. A connection that drops is resumed from where it stopped
    /// (<see cref="FileTransferClientOptions.MaxRetries"/>), asking for the rest of the same version
    /// only; see <see cref="DownloadOptions.Resume"/> to continue after bytes already in the destination.
    /// </summary>
    /// <param name="name">The file's name (or, over REST, a signed link).</param>
    /// <param name="destination">Where the bytes go, from its current position (with <see cref="DownloadOptions.Resume"/>: after its current content).</param>
    /// <param name="options">Resuming; null for a fresh download.</param>
    /// <param name="progress">Told after every chunk; see <see cref="TransferProgress"/>.</param>
    /// <param name="cancellationToken">Stops the download; the bytes written so far stay in the destination.</param>
    /// <returns>The file's description, the digest and how the download went.</returns>
    /// <exception cref="FileTransferException">The server refused, the connection was lost for good, or <see cref="FileTransferErrorKind.DigestMismatch"/>: the destination then holds bytes that do not match.</exception>
    public Task<DownloadResult> DownloadAsync(
        string name, Stream destination, DownloadOptions? options = null, IProgress<TransferProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(destination);
        return new Download(_transport, _options, name, destination, options ?? new DownloadOptions(), progress).RunAsync(cancellationToken);
    }

    /// <summary>
    /// Downloads a file to <paramref name="path"/> through <c>PATH.part</c>: what arrives is kept
    /// there (with the ETag it belongs to in <c>PATH.part.etag</c>) when the download is interrupted or
    /// cancelled, the next call resumes it, and only a complete file whose SHA-256 matches replaces
    /// <paramref name="path"/>. A part whose digest does not match is deleted.
    /// </summary>
    /// <param name="name">The file's name (or, over REST, a signed link).</param>
    /// <param name="path">The local file to write; an existing one is replaced once the download is verified.</param>
    /// <param name="progress">Told after every chunk; see <see cref="TransferProgress"/>.</param>
    /// <param name="cancellationToken">Stops the download; the part is kept for the next call.</param>
    public async Task<DownloadResult> DownloadToFileAsync(string name, string path, IProgress<TransferProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        var part = new PartialFile(path);
        var options = new DownloadOptions { Resume = true, IfMatch = part.Validator, OnETag = part.SaveValidator };
        DownloadResult result;
        try
        {
            await using (var stream = part.Open())
            {
                result = await new Download(_transport, _options, name, stream, options, progress, part.OutputPath).RunAsync(cancellationToken);
            }
        }
        catch (FileTransferException e) when (e.Kind == FileTransferErrorKind.DigestMismatch)
        {
            part.Discard();
            throw new FileTransferException(e.Kind, $"{e.Message} The partial file was deleted.", e.Status, e.Detail, e);
        }
        catch (FileTransferException e) when (e.Kind == FileTransferErrorKind.ConnectionLost && File.Exists(part.PartPath) && new FileInfo(part.PartPath).Length > 0)
        {
            throw new FileTransferException(e.Kind, $"{e.Message} {part.PartPath} is kept: the next download of it resumes there.", e.Status, e.Detail, e);
        }
        catch
        {
            // Refused before any byte arrived: leave nothing behind.
            part.DiscardIfEmpty();
            throw;
        }

        part.Commit();
        return result;
    }

    /// <summary>
    /// Uploads <paramref name="content"/> (from its current position to its end) as <paramref name="name"/>,
    /// streamed in <see cref="FileTransferClientOptions.UploadChunkSize"/> pieces. The SHA-256 goes first
    /// (REST <c>Content-Digest</c>, gRPC metadata) so that the server refuses bytes that do not match
    /// before it commits them; a seekable stream is read twice for that (see <see cref="UploadOptions.Sha256"/>).
    /// An upload is atomic on the server: when it fails or is cancelled, nothing of it is stored.
    /// </summary>
    /// <param name="name">The name on the server (or, over REST, a signed write link).</param>
    /// <param name="content">The bytes.</param>
    /// <param name="options">Replace or not; a known digest.</param>
    /// <param name="progress">Told after every chunk (and while hashing); see <see cref="TransferProgress"/>.</param>
    /// <param name="cancellationToken">Stops the upload; the server discards what arrived.</param>
    public Task<UploadResult> UploadAsync(
        string name, Stream content, UploadOptions? options = null, IProgress<TransferProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(content);
        return Upload.RunAsync(_transport, _options, name, GetFileName(name), content, options ?? new UploadOptions(), progress, cancellationToken);
    }

    /// <summary>Uploads the local file <paramref name="path"/> as <paramref name="name"/>; see <see cref="UploadAsync"/>.</summary>
    /// <param name="path">The local file.</param>
    /// <param name="name">The name on the server (or, over REST, a signed write link); null for the local file's name.</param>
    /// <param name="options">Replace or not; a known digest.</param>
    /// <param name="progress">Told after every chunk (and while hashing); see <see cref="TransferProgress"/>.</param>
    /// <param name="cancellationToken">Stops the upload; the server discards what arrived.</param>
    /// <exception cref="FileNotFoundException">There is no file at <paramref name="path"/>.</exception>
    public async Task<UploadResult> UploadFileAsync(
        string path, string? name = null, UploadOptions? options = null, IProgress<TransferProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        await using var content = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 0, FileOptions.Asynchronous | FileOptions.SequentialScan);
        if (options?.ResumeStateDirectory is { } states)
        {
            return await ResumableUpload.RunAsync(_transport, _options, name ?? Path.GetFileName(path), path, content, options, new ResumeState(states), progress, cancellationToken);
        }

        return await Upload.RunAsync(
            _transport, _options, name ?? Path.GetFileName(path), Path.GetFileName(path), content, options ?? new UploadOptions(), progress, cancellationToken);
    }

    /// <summary>Closes the connections this client opened itself (not those of an <see cref="HttpClient"/> it was given).</summary>
    public void Dispose() => _transport.Dispose();

    private static IFileTransport CreateTransport(FileTransferClientOptions options, HttpClient? httpClient)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        if (httpClient is not null && options.ConfiguresTls)
        {
            throw new ArgumentException(
                "TrustedCertificates and AcceptAnyServerCertificate apply to the client's own connections: with an HttpClient of yours, configure its handler's SslOptions instead.",
                nameof(options));
        }

        var address = options.EffectiveAddress;
        if (options.Protocol == FileTransferProtocol.Rest)
        {
            return new RestTransport(httpClient ?? HttpHandlers.CreateClient(options), address, options.ApiKey, options.HttpVersion, ownsClient: httpClient is null);
        }

        var channel = GrpcChannel.ForAddress(address, ChannelOptions(options, httpClient));
        return new GrpcTransport(new FileService.FileServiceClient(channel), address, options.ApiKey, channel);
    }

    private static GrpcChannelOptions ChannelOptions(FileTransferClientOptions options, HttpClient? httpClient) => new()
    {
        HttpClient = httpClient,
        HttpHandler = httpClient is null ? HttpHandlers.Create(options) : null,
        DisposeHttpClient = httpClient is null,
        MaxReceiveMessageSize = MaxReceiveMessageSize,
    };
}
