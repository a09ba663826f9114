using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>nghttp2's own clients against the cleartext HTTP/2 endpoint (prior knowledge, no upgrade).</summary>
public sealed class NghttpTests : IDisposable
{
    // HTTP/2 header names are lower case (RFC 9113 8.2.1).
    private const string Authorization = "authorization: Bearer " + ExternalTool.ApiKey;

    private readonly KestrelFactory _server = new();

    [Fact]
    public async Task Nghttp_Downloads_The_Exact_Bytes_Over_Cleartext_Http2()
    {
        var source = _server.Storage.WriteRandom("h2/file.bin", 1_048_577);
        var url = new Uri(_server.AddressOf(HttpProtocols.Http2), "/api/files/h2/file.bin");

        var (exitCode, body, error) = await ExternalTool.RunAsync("nghttp", "-H", Authorization, url.ToString());

        Assert.True(exitCode == 0, error);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(body));
    }

    [Fact]
    public async Task Nghttp_Sends_Range_And_Gets_Those_Bytes_With_Status_206()
    {
        var source = _server.Storage.WriteRandom("h2/range.bin", 50_000);
        var url = new Uri(_server.AddressOf(HttpProtocols.Http2), "/api/files/h2/range.bin");

        var (exitCode, body, error) = await ExternalTool.RunAsync("nghttp", "-H", Authorization, "-H", "range: bytes=100-199", url.ToString());
        var (_, verbose, _) = await ExternalTool.RunAsync("nghttp", "-v", "-n", "-H", Authorization, "-H", "range: bytes=100-199", url.ToString());

        Assert.True(exitCode == 0, error);
        Assert.Equal(source[100..200], body);
        Assert.Contains(":status: 206", System.Text.Encoding.UTF8.GetString(verbose), StringComparison.Ordinal);
    }

    [Fact]
    public async Task H2load_Completes_Every_Request_On_Multiplexed_Streams()
    {
        _server.Storage.WriteRandom("h2/load.bin", 100_000);
        var url = new Uri(_server.AddressOf(HttpProtocols.Http2), "/api/files/h2/load.bin");

        var (exitCode, output, error) = await ExternalTool.RunAsync("h2load", "-H", Authorization, "-n", "40", "-c", "2", "-m", "4", url.ToString());

        var text = System.Text.Encoding.UTF8.GetString(output);
        Assert.True(exitCode == 0, text + error);
        Assert.Contains("40 succeeded, 0 failed, 0 errored", text, StringComparison.Ordinal);
        Assert.Contains("h2c", text, StringComparison.Ordinal);
    }

    public void Dispose() => _server.Dispose();
}
