using System.Diagnostics;
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

        var (exitCode, stderr) = await RunCurlAsync("-sS", "--fail", "-H", $"Authorization: Bearer {FileTransferFactory.TestKey}", "-C", "-", "-o", output, url.ToString());

        Assert.True(exitCode == 0, stderr);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await File.ReadAllBytesAsync(output, TestTimeout.Token)));
    }

    [Fact]
    public async Task Curl_Http2_Prior_Knowledge_Downloads_From_The_Cleartext_Http2_Endpoint()
    {
        var source = _server.Storage.WriteRandom("curl/h2.bin", 500_000);
        var output = Path.Combine(_downloads.RootPath, "h2.bin");
        var url = new Uri(_server.AddressOf(HttpProtocols.Http2), "/api/files/curl/h2.bin");

        var (exitCode, stderr) = await RunCurlAsync("-sS", "--fail", "-H", $"Authorization: Bearer {FileTransferFactory.TestKey}", "--http2-prior-knowledge", "-w", "%{http_version}", "-o", output, url.ToString());

        Assert.True(exitCode == 0, stderr);
        Assert.Equal(source, await File.ReadAllBytesAsync(output, TestTimeout.Token));
    }

    internal static async Task<(int ExitCode, string Output)> RunCurlAsync(params string[] arguments)
    {
        var start = new ProcessStartInfo("curl", arguments) { RedirectStandardError = true, RedirectStandardOutput = true };
        using var curl = Process.Start(start)!;
        var stdout = curl.StandardOutput.ReadToEndAsync(TestTimeout.Token);
        var stderr = curl.StandardError.ReadToEndAsync(TestTimeout.Token);
        await curl.WaitForExitAsync(TestTimeout.Token);
        return (curl.ExitCode, await stdout + await stderr);
    }

    public void Dispose()
    {
        _server.Dispose();
        _downloads.Dispose();
    }
}
