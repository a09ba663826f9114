using System.Net;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>What only real Kestrel shows: which protocol each endpoint negotiates.</summary>
public sealed class ProtocolTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly byte[] _source;

    public ProtocolTests()
    {
        _source = _server.Storage.WriteRandom("proto/file.bin", 200_000);
    }

    [Fact]
    public async Task Http1_Endpoint_Serves_Rest_Over_Http11()
    {
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);

        using var response = await client.GetAsync("/api/files/proto/file.bin", TestTimeout.Token);

        Assert.Equal(HttpVersion.Version11, response.Version);
        Assert.Equal(_source, await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
    }

    [Fact]
    public async Task Http2_Endpoint_Serves_Rest_Over_Cleartext_Http2_With_Prior_Knowledge()
    {
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http2), HttpVersion.Version20);

        using var response = await client.GetAsync("/api/files/proto/file.bin", TestTimeout.Token);

        Assert.Equal(HttpVersion.Version20, response.Version);
        Assert.Equal(_source, await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
    }

    [Fact]
    public async Task Http2_Endpoint_Answers_Http11_With_400()
    {
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http2), HttpVersion.Version11);

        using var response = await client.GetAsync("/healthz", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("HTTP/2 only", await response.Content.ReadAsStringAsync(TestTimeout.Token), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Healthz_Is_200_When_Ready()
    {
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);

        using var response = await client.GetAsync("/healthz", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("Healthy", await response.Content.ReadAsStringAsync(TestTimeout.Token));
    }

    [Theory]
    [InlineData("2.0")]
    [InlineData("1.1")]
    public async Task Tls_Endpoint_Negotiates_Http2_And_Http11_By_Alpn(string version)
    {
        using var certificate = new TestCertificate();
        certificate.AddEndpointTo(_server);
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1AndHttp2), Version.Parse(version), certificate.TrustingHandler());

        using var response = await client.GetAsync("/api/files/proto/file.bin", TestTimeout.Token);

        Assert.Equal("https", client.BaseAddress!.Scheme);
        Assert.Equal(Version.Parse(version), response.Version);
        Assert.Equal(_source, await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
    }

    public void Dispose() => _server.Dispose();
}
