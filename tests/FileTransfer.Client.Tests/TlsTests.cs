using System.Security.Cryptography;
using FileTransfer.Client.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Client.Tests;

/// <summary>
/// A server with a self-signed certificate (docs/deployment.md, TLS) over both protocols:
/// unreachable by default, reachable when its certificate is trusted or any certificate is accepted.
/// </summary>
public sealed class TlsTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly SelfSignedCertificate _certificate = new();

    public TlsTests() => _certificate.AddEndpointTo(_server);

    public static TheoryData<FileTransferProtocol> Protocols() => [FileTransferProtocol.Rest, FileTransferProtocol.Grpc];

    private Uri Https => _server.AddressOf(HttpProtocols.Http1AndHttp2);

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task A_Self_Signed_Certificate_Is_Refused_By_Default(FileTransferProtocol protocol)
    {
        using var client = Clients.For(Https, protocol);

        var error = await Assert.ThrowsAsync<FileTransferException>(() => client.GetInfoAsync("tls/a.bin", TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.ConnectionLost, error.Kind);
        Assert.Contains("certificate", error.Message, StringComparison.OrdinalIgnoreCase);
    }

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Trusting_The_Servers_Certificate_Moves_The_Exact_Bytes(FileTransferProtocol protocol)
    {
        var source = RandomNumberGenerator.GetBytes(300_000);
        using var client = Clients.For(Https, protocol, o => o.TrustedCertificates = _certificate.Trusted());

        await client.UploadAsync("tls/up.bin", new MemoryStream(source), cancellationToken: TestTimeout.Token);
        using var copy = new MemoryStream();
        var result = await client.DownloadAsync("tls/up.bin", copy, cancellationToken: TestTimeout.Token);

        Assert.Equal(source, copy.ToArray());
        Assert.True(result.Verified);
        Assert.Equal(new Version(2, 0), result.File.HttpVersion);
    }

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Trusted_Certificates_Replace_The_Trusted_Roots_Rather_Than_Add_To_Them(FileTransferProtocol protocol)
    {
        // Another self-signed certificate: trusting it trusts that one only, not the server's.
        using var other = new SelfSignedCertificate();
        using var client = Clients.For(Https, protocol, o => o.TrustedCertificates = other.Trusted());

        var error = await Assert.ThrowsAsync<FileTransferException>(() => client.GetInfoAsync("tls/a.bin", TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.ConnectionLost, error.Kind);
        Assert.Contains("certificate", error.Message, StringComparison.OrdinalIgnoreCase);
    }

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Accepting_Any_Certificate_Reaches_The_Server(FileTransferProtocol protocol)
    {
        _server.Storage.WriteRandom("tls/any.bin", 1234);
        using var client = Clients.For(Https, protocol, o => o.AcceptAnyServerCertificate = true);

        var info = await client.GetInfoAsync("tls/any.bin", TestTimeout.Token);

        Assert.Equal(1234, info.Size);
    }

    [Fact]
    public void Accepting_Any_Certificate_And_Trusting_Some_Exclude_Each_Other() =>
        Assert.Throws<ArgumentException>(() => new FileTransferClient(new FileTransferClientOptions
        {
            AcceptAnyServerCertificate = true,
            TrustedCertificates = _certificate.Trusted(),
        }));

    [Fact]
    public void Tls_Settings_Are_Refused_With_An_HttpClient_Of_The_Callers()
    {
        using var http = new HttpClient();

        Assert.Throws<ArgumentException>(() => new FileTransferClient(http, new FileTransferClientOptions { AcceptAnyServerCertificate = true }));
    }

    public void Dispose()
    {
        _server.Dispose();
        _certificate.Dispose();
    }
}
