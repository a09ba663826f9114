using System.Security.Cryptography.X509Certificates;

namespace FileTransfer.Client;

/// <summary>Settings of a <see cref="FileTransferClient"/>. Every property has a working default.</summary>
public sealed class FileTransferClientOptions
{
    /// <summary>The largest gRPC upload chunk: the server's default gRPC message limit is 4 MB.</summary>
    public const int MaxUploadChunkSize = 4 * 1024 * 1024;

    /// <summary>The server's REST address when <see cref="ServerAddress"/> is not set.</summary>
    public static readonly Uri DefaultRestAddress = new("http://localhost:5000");

    /// <summary>The server's gRPC (cleartext HTTP/2) address when <see cref="ServerAddress"/> is not set.</summary>
    public static readonly Uri DefaultGrpcAddress = new("http://localhost:5001");

    /// <summary>REST or gRPC. Both move the same bytes with the same checks and the same errors.</summary>
    public FileTransferProtocol Protocol { get; set; } = FileTransferProtocol.Rest;

    /// <summary>
    /// Base address of the server, e.g. <c>https://files.example.com</c>; a path base such as
    /// <c>https://host/ft</c> is kept for REST. Null: <see cref="DefaultRestAddress"/> for REST,
    /// <see cref="DefaultGrpcAddress"/> for gRPC (the server's cleartext HTTP/2 port).
    /// </summary>
    public Uri? ServerAddress { get; set; }

    /// <summary>Sent as <c>Authorization: Bearer KEY</c> (gRPC: the same request header). Never sent with a signed link.</summary>
    public string? ApiKey { get; set; }

    /// <summary>
    /// REST only: <c>1.1</c> or <c>2.0</c>. <c>2.0</c> on <c>http://</c> is HTTP/2 with prior knowledge (h2c);
    /// on <c>https://</c> ALPN negotiates it. Null: HTTP/1.1 on <c>http://</c>, HTTP/2 with fallback to 1.1 on <c>https://</c>.
    /// gRPC always uses HTTP/2.
    /// </summary>
    public Version? HttpVersion { get; set; }

    /// <summary>
    /// <c>https://</c> only: the certificates the server's certificate must chain to, instead of the
    /// system's trusted roots: a private CA's certificate, or a self-signed server certificate
    /// itself. The server's name must still match its certificate. Null: the system's trusted roots.
    /// Applies to the connections the client opens itself, not to an <see cref="HttpClient"/> it is given.
    /// </summary>
    public X509Certificate2Collection? TrustedCertificates { get; set; }

    /// <summary>
    /// <c>https://</c> only: accept whatever certificate the server presents (curl's <c>-k</c>). The
    /// connection is still encrypted, but the server is not authenticated: anyone in between can pose
    /// as it and read the API key. For tests and first trials only; prefer <see cref="TrustedCertificates"/>.
    /// Applies to the connections the client opens itself, not to an <see cref="HttpClient"/> it is given.
    /// </summary>
    public bool AcceptAnyServerCertificate { get; set; }

    /// <summary>Bytes per upload message (gRPC) or per read of the local file (REST): 1 B to 4 MiB, default 64 KiB.</summary>
    public int UploadChunkSize { get; set; } = 64 * 1024;

    /// <summary>
    /// How often a download whose connection dropped is resumed from where it stopped before the
    /// error is reported. The count starts again whenever bytes arrive. 0 disables retries.
    /// </summary>
    public int MaxRetries { get; set; } = 4;

    /// <summary>The wait before the first retry; it doubles with each further retry, up to 10 s.</summary>
    public TimeSpan RetryDelay { get; set; } = TimeSpan.FromMilliseconds(500);

    /// <summary>
    /// A transfer has no overall timeout; a read that receives nothing for this long counts as a lost
    /// connection (and is retried like one).
    /// </summary>
    public TimeSpan StallTimeout { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>Files per listing page (gRPC <c>page_size</c>, REST <c>pageSize</c>), 0 for the server's default (1,000); the server caps it at 10,000.</summary>
    public int ListPageSize { get; set; }

    /// <summary>The address requests go to: <see cref="ServerAddress"/> or the protocol's default.</summary>
    public Uri EffectiveAddress =>
        ServerAddress ?? (Protocol == FileTransferProtocol.Grpc ? DefaultGrpcAddress : DefaultRestAddress);

    /// <summary>Throws <see cref="ArgumentException"/> when a setting is out of range.</summary>
    public void Validate()
    {
        if (ServerAddress is { } address && (!address.IsAbsoluteUri || (address.Scheme != Uri.UriSchemeHttp && address.Scheme != Uri.UriSchemeHttps)))
        {
            throw new ArgumentException($"The server address must be an absolute http:// or https:// URL, not '{address}'.", nameof(ServerAddress));
        }

        if (UploadChunkSize is < 1 or > MaxUploadChunkSize)
        {
            throw new ArgumentException($"The upload chunk size must be between 1 B and 4 MiB, not {UploadChunkSize} B.", nameof(UploadChunkSize));
        }

        if (HttpVersion is { } version && version != System.Net.HttpVersion.Version11 && version != System.Net.HttpVersion.Version20)
        {
            throw new ArgumentException($"The HTTP version must be 1.1 or 2.0, not {version}.", nameof(HttpVersion));
        }

        if (AcceptAnyServerCertificate && TrustedCertificates is not null)
        {
            throw new ArgumentException("AcceptAnyServerCertificate and TrustedCertificates exclude each other: accepting any certificate trusts none in particular.");
        }

        if (MaxRetries < 0 || RetryDelay < TimeSpan.Zero || StallTimeout <= TimeSpan.Zero || ListPageSize < 0)
        {
            throw new ArgumentException("MaxRetries, RetryDelay and ListPageSize must not be negative, and StallTimeout must be positive.");
        }
    }

    /// <summary>True when TLS settings are given that only the client's own connections can apply.</summary>
    internal bool ConfiguresTls => TrustedCertificates is not null || AcceptAnyServerCertificate;

    internal FileTransferClientOptions Clone() => (FileTransferClientOptions)MemberwiseClone();
}
