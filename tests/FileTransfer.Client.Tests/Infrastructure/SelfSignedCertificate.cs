using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Client.Tests.Infrastructure;

/// <summary>
/// A self-signed server certificate for localhost and 127.0.0.1, shaped like the ASP.NET Core
/// development certificate (not a CA, server authentication only), in the two PEM files of
/// docs/deployment.md: the server loads <see cref="CertificatePath"/> and <see cref="KeyPath"/>,
/// a client trusts <see cref="CertificatePath"/> (<c>--cacert</c>).
/// </summary>
public sealed class SelfSignedCertificate : IDisposable
{
    private readonly string _folder = Path.Combine(Path.GetTempPath(), "filetransfer-tests", $"tls-{Guid.NewGuid():N}");

    public SelfSignedCertificate()
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256);
        var names = new SubjectAlternativeNameBuilder();
        names.AddIpAddress(IPAddress.Loopback);
        names.AddDnsName("localhost");
        request.CertificateExtensions.Add(names.Build());
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(certificateAuthority: false, hasPathLengthConstraint: false, pathLengthConstraint: 0, critical: true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.DigitalSignature, critical: true));
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], critical: false));
        using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddDays(1));
        Directory.CreateDirectory(_folder);
        File.WriteAllText(CertificatePath, certificate.ExportCertificatePem());
        File.WriteAllText(KeyPath, key.ExportPkcs8PrivateKeyPem());
    }

    /// <summary>The certificate, PEM: what the server presents and a client trusts.</summary>
    public string CertificatePath => Path.Combine(_folder, "cert.pem");

    /// <summary>The private key, PEM (PKCS#8), for the server only.</summary>
    public string KeyPath => Path.Combine(_folder, "key.pem");

    /// <summary>The certificate as a client trusts it: its public part, read from <see cref="CertificatePath"/>.</summary>
    public X509Certificate2Collection Trusted()
    {
        var certificates = new X509Certificate2Collection();
        certificates.ImportFromPemFile(CertificatePath);
        return certificates;
    }

    /// <summary>Adds an HTTPS endpoint on port 0 with this certificate; its protocols default to HTTP/1.1 and HTTP/2 by ALPN.</summary>
    public void AddEndpointTo(FileTransferFactory server) =>
        server.With("Kestrel:Endpoints:Https:Url", "https://127.0.0.1:0")
            .With("Kestrel:Endpoints:Https:Certificate:Path", CertificatePath)
            .With("Kestrel:Endpoints:Https:Certificate:KeyPath", KeyPath);

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
