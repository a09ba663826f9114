using System.Net;
using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>A self-signed localhost certificate made by the test, and a TLS endpoint on a factory that uses it.</summary>
public sealed class TestCertificate : IDisposable
{
    private const string Password = "test-password";
    private readonly string _pfx = Path.Combine(Path.GetTempPath(), "filetransfer-tests", $"{Guid.NewGuid():N}.pfx");

    public TestCertificate()
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        var san = new SubjectAlternativeNameBuilder();
        san.AddIpAddress(IPAddress.Loopback);
        san.AddDnsName("localhost");
        request.CertificateExtensions.Add(san.Build());
        Certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddDays(1));
        Directory.CreateDirectory(Path.GetDirectoryName(_pfx)!);
        File.WriteAllBytes(_pfx, Certificate.Export(X509ContentType.Pfx, Password));
    }

    public X509Certificate2 Certificate { get; }

    /// <summary>Adds an HTTPS endpoint (HTTP/1.1 and HTTP/2 by ALPN) on port 0 with this certificate.</summary>
    public void AddEndpointTo(FileTransferFactory server) =>
        server.With("Kestrel:Endpoints:Https:Url", "https://127.0.0.1:0")
            .With("Kestrel:Endpoints:Https:Certificate:Path", _pfx)
            .With("Kestrel:Endpoints:Https:Certificate:Password", Password);

    /// <summary>A handler that trusts exactly this certificate, nothing else.</summary>
    public SocketsHttpHandler TrustingHandler() => new()
    {
        SslOptions = new SslClientAuthenticationOptions
        {
            RemoteCertificateValidationCallback = (_, cert, _, _) => cert?.GetCertHashString() == Certificate.GetCertHashString(),
        },
    };

    public void Dispose()
    {
        Certificate.Dispose();
        File.Delete(_pfx);
    }
}
