using System.Text;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>curl, the client most users download with, against real Kestrel.</summary>
public sealed class CurlDownloadTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _downloads = new();

    [Theory]
    [InlineData(1)]
    [InlineData(65_536)]
    [InlineData(1_000_000)]
    public async Task Curl_Continue_Resumes_A_Broken_Download_To_The_Exact_Bytes(int receivedBeforeCut)
    {
        var source = _server.Storage.WriteRandom("curl/big.bin", 3_000_000);
        var output = Path.Combine(_downloads.RootPath, "big.bin");
        await File.WriteAllBytesAsync(output, source[..receivedBeforeCut], TestTimeout.Token);
        var url = new Uri(_server.AddressOf(HttpProtocols.Http1), "/api/files/curl/big.bin");

        var (exitCode, stderr) = await RunCurlAsync("-sS", "--fail", "-H", ExternalTool.AuthorizationHeader, "-C", "-", "-o", output, url.ToString());

        Assert.True(exitCode == 0, stderr);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await File.ReadAllBytesAsync(output, TestTimeout.Token)));
    }

    [Fact]
    public async Task Curl_Http2_Prior_Knowledge_Downloads_From_The_Cleartext_Http2_Endpoint()
    {
        var source = _server.Storage.WriteRandom("curl/h2.bin", 500_000);
        var output = Path.Combine(_downloads.RootPath, "h2.bin");
        var url = new Uri(_server.AddressOf(HttpProtocols.Http2), "/api/files/curl/h2.bin");

        var (exitCode, stdout) = await RunCurlAsync("-sS", "--fail", "-H", ExternalTool.AuthorizationHeader, "--http2-prior-knowledge", "-w", "%{http_version}", "-o", output, url.ToString());

        Assert.True(exitCode == 0, stdout);
        Assert.Equal("2", stdout);
        Assert.Equal(source, await File.ReadAllBytesAsync(output, TestTimeout.Token));
    }

    [Fact]
    public async Task Curl_Http11_Downloads_The_Exact_Bytes_With_Its_Headers()
    {
        var source = _server.Storage.WriteRandom("curl/plain.bin", 1_234_567);
        var output = Path.Combine(_downloads.RootPath, "plain.bin");
        var url = new Uri(_server.AddressOf(HttpProtocols.Http1), "/api/files/curl/plain.bin");

        var (exitCode, stdout) = await RunCurlAsync("-sS", "--fail", "-H", ExternalTool.AuthorizationHeader, "--http1.1", "-D", "-", "-w", "%{http_version}", "-o", output, url.ToString());

        Assert.True(exitCode == 0, stdout);
        Assert.EndsWith("1.1", stdout, StringComparison.Ordinal);
        Assert.Contains("Accept-Ranges: bytes", stdout, StringComparison.OrdinalIgnoreCase);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await File.ReadAllBytesAsync(output, TestTimeout.Token)));
    }

    [Theory]
    [InlineData("--http1.1")]
    [InlineData("--http2-prior-knowledge")]
    public async Task Curl_Range_Gets_206_With_Exactly_Those_Bytes(string protocol)
    {
        var source = _server.Storage.WriteRandom("curl/range.bin", 100_000);
        var output = Path.Combine(_downloads.RootPath, "range.bin");
        var endpoint = protocol == "--http1.1" ? HttpProtocols.Http1 : HttpProtocols.Http2;
        var url = new Uri(_server.AddressOf(endpoint), "/api/files/curl/range.bin");

        var (exitCode, stdout) = await RunCurlAsync("-sS", "--fail", "-H", ExternalTool.AuthorizationHeader, protocol, "-r", "1000-65535", "-w", "%{http_code}", "-o", output, url.ToString());

        Assert.True(exitCode == 0, stdout);
        Assert.Equal("206", stdout);
        Assert.Equal(source[1000..65536], await File.ReadAllBytesAsync(output, TestTimeout.Token));
    }

    /// <summary>Runs curl; the text is what it wrote to standard output (e.g. <c>-w</c>) followed by standard error.</summary>
    internal static async Task<(int ExitCode, string Output)> RunCurlAsync(params string[] arguments)
    {
        var (exitCode, output, error) = await ExternalTool.RunAsync("curl", arguments);
        return (exitCode, Encoding.UTF8.GetString(output) + error);
    }

    public void Dispose()
    {
        _server.Dispose();
        _downloads.Dispose();
    }
}
