using System.CommandLine;
using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using FileTransfer.Client;

namespace FileTransfer.Cli;

/// <summary>Options every command accepts, before or after the command name.</summary>
internal sealed class GlobalOptions
{
    public const string ServerVariable = "FILETRANSFER_SERVER";
    public const string GrpcServerVariable = "FILETRANSFER_GRPC_SERVER";
    public const string ApiKeyVariable = "FILETRANSFER_API_KEY";

    private readonly Func<string, string?> _environment;

    public GlobalOptions(Func<string, string?> environment)
    {
        _environment = environment;
        Protocol.AcceptOnlyFromAmong(ClientSettings.Rest, ClientSettings.Grpc);
        Http.AcceptOnlyFromAmong("1.1", "2");
    }

    /// <summary>An environment variable, through the same source the options read (tests give their own).</summary>
    public string? Variable(string name) => _environment(name);

    public Option<string?> Server { get; } = new("--server", "-s")
    {
        Description = $"Server base URL. Default for REST: ${ServerVariable}, else http://localhost:5000; for gRPC: ${GrpcServerVariable}, " +
            $"else ${ServerVariable} if it is https://, else http://localhost:5001",
        Recursive = true,
    };

    public Option<string> Protocol { get; } = new("--protocol", "-p")
    {
        Description = "rest or grpc (gRPC: h2c on http://, TLS on https://)",
        DefaultValueFactory = _ => ClientSettings.Rest,
        Recursive = true,
    };

    public Option<string?> Http { get; } = new("--http")
    {
        Description = "REST over HTTP 1.1 or 2 (h2c prior knowledge on http://, ALPN on https://); default 1.1 on http://, 2 with fallback on https://. gRPC is always HTTP/2",
        Recursive = true,
    };

    public Option<string?> ApiKey { get; } = new("--api-key")
    {
        Description = $"API key sent as 'Authorization: Bearer KEY' (default: ${ApiKeyVariable}); not sent with full URLs (signed links)",
        Recursive = true,
    };

    public Option<FileInfo?> CaCert { get; } = new("--cacert")
    {
        Description = "https://: trust the server's certificate only if it chains to a certificate in this PEM file (a CA, or a self-signed " +
            "server certificate itself), instead of the system's trusted roots",
        HelpName = "FILE",
        Recursive = true,
    };

    public Option<bool> Insecure { get; } = new("--insecure", "-k")
    {
        Description = "https://: accept any server certificate, like curl -k. Still encrypted, but anyone in between can pose as the server and read the API key",
        Recursive = true,
    };

    public Option<bool> Quiet { get; } = new("--quiet", "-q")
    {
        Description = "No progress and no notes; only errors",
        Recursive = true,
    };

    public IEnumerable<Option> All => [Server, Protocol, Http, ApiKey, CaCert, Insecure, Quiet];

    public ClientSettings Read(ParseResult parse)
    {
        var protocol = parse.GetValue(Protocol) == ClientSettings.Grpc ? FileTransferProtocol.Grpc : FileTransferProtocol.Rest;
        var apiKey = parse.GetValue(ApiKey) ?? _environment(ApiKeyVariable);
        var http = parse.GetValue(Http) switch
        {
            "2" => HttpVersion.Version20,
            "1.1" when protocol == FileTransferProtocol.Grpc => throw new CliException(ExitCodes.Usage, "gRPC always runs over HTTP/2: --http 1.1 applies to REST only."),
            "1.1" => HttpVersion.Version11,
            _ => null,
        };
        var insecure = parse.GetValue(Insecure);
        var caCert = parse.GetValue(CaCert);
        if (insecure && caCert is not null)
        {
            throw new CliException(ExitCodes.Usage, "--insecure and --cacert cannot be used together: --insecure trusts any certificate.");
        }

        return new ClientSettings(
            ServerFor(protocol, parse.GetValue(Server)),
            protocol,
            http,
            string.IsNullOrEmpty(apiKey) ? null : apiKey,
            parse.GetValue(Quiet))
        {
            AcceptAnyServerCertificate = insecure,
            TrustedCertificates = caCert is null ? null : ReadCertificates(caCert),
        };
    }

    // One address for REST, one for gRPC: the server's cleartext REST port (HTTP/1.1) is not its
    // cleartext gRPC port (h2c). A TLS port serves both, so an https:// REST address serves gRPC too.
    private Uri? ServerFor(FileTransferProtocol protocol, string? given)
    {
        if (!string.IsNullOrEmpty(given))
        {
            return ParseServer(given, "--server");
        }

        var rest = _environment(ServerVariable);
        if (protocol == FileTransferProtocol.Rest)
        {
            return string.IsNullOrEmpty(rest) ? null : ParseServer(rest, $"${ServerVariable}");
        }

        var grpc = _environment(GrpcServerVariable);
        if (!string.IsNullOrEmpty(grpc))
        {
            return ParseServer(grpc, $"${GrpcServerVariable}");
        }

        if (string.IsNullOrEmpty(rest))
        {
            return null;
        }

        var address = ParseServer(rest, $"${ServerVariable}");
        return address.Scheme == Uri.UriSchemeHttps
            ? address
            : throw new CliException(ExitCodes.Usage,
                $"${ServerVariable} ({rest}) is a cleartext REST address, and the server's cleartext gRPC port is another one (HTTP/2, :5001 by default): " +
                $"set ${GrpcServerVariable} (e.g. http://localhost:5001) or pass --server. An https:// ${ServerVariable} serves gRPC as well.");
    }

    private static Uri ParseServer(string text, string source) =>
        Uri.TryCreate(text, UriKind.Absolute, out var url) && (url.Scheme == Uri.UriSchemeHttp || url.Scheme == Uri.UriSchemeHttps)
            ? url
            : throw new CliException(ExitCodes.Usage, $"The server ({source}) must be an http:// or https:// URL, not '{text}'.");

    private static X509Certificate2Collection ReadCertificates(FileInfo file)
    {
        var certificates = new X509Certificate2Collection();
        try
        {
            certificates.ImportFromPemFile(file.FullName);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or CryptographicException)
        {
            throw new CliException(ExitCodes.Usage, $"--cacert: cannot read certificates from '{file.FullName}': {e.Message}");
        }

        return certificates.Count > 0
            ? certificates
            : throw new CliException(ExitCodes.Usage, $"--cacert: '{file.FullName}' holds no PEM certificate (-----BEGIN CERTIFICATE-----).");
    }
}
