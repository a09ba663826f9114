using System.Security.Cryptography.X509Certificates;
using FileTransfer.Client;

namespace FileTransfer.Cli;

/// <summary>The global options after parsing, with the environment's defaults applied.</summary>
/// <param name="Server">Base URL of the server, or null for the protocol's default (REST :5000, gRPC :5001).</param>
/// <param name="Protocol">REST or gRPC.</param>
/// <param name="HttpVersion">Requested HTTP version (REST), or null for the default of the URL's scheme.</param>
/// <param name="ApiKey">Sent as <c>Authorization: Bearer</c> with names (never with signed links).</param>
/// <param name="Quiet">No progress and no notes; errors are still written.</param>
internal sealed record ClientSettings(Uri? Server, FileTransferProtocol Protocol, Version? HttpVersion, string? ApiKey, bool Quiet)
{
    public const string Rest = "rest";
    public const string Grpc = "grpc";

    /// <summary><c>--cacert</c>: the only certificates an https:// server's certificate may chain to.</summary>
    public X509Certificate2Collection? TrustedCertificates { get; init; }

    /// <summary><c>--insecure</c>: any server certificate is accepted.</summary>
    public bool AcceptAnyServerCertificate { get; init; }

    /// <summary>The library's options for these settings.</summary>
    public FileTransferClientOptions ToOptions(int? uploadChunkSize = null)
    {
        var options = new FileTransferClientOptions
        {
            Protocol = Protocol,
            ServerAddress = Server,
            ApiKey = ApiKey,
            HttpVersion = HttpVersion,
            TrustedCertificates = TrustedCertificates,
            AcceptAnyServerCertificate = AcceptAnyServerCertificate,
        };
        if (uploadChunkSize is { } chunk)
        {
            options.UploadChunkSize = chunk;
        }

        return options;
    }

    public FileTransferClient CreateClient(int? uploadChunkSize = null) => new(ToOptions(uploadChunkSize));
}
