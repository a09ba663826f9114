using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Rest;

/// <summary>
/// Server-side allocations of a large download. The client is curl, in its own process, so the
/// process-wide allocation counter measures the server alone.
/// </summary>
[Collection(nameof(AllocationCollection))]
public sealed class DownloadAllocationTests : IDisposable
{
    private const int FileSize = 256 * 1024 * 1024;
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _downloads = new();

    [Theory]
    [InlineData("--http1.1", HttpProtocols.Http1)]
    [InlineData("--http2-prior-knowledge", HttpProtocols.Http2)]
    public async Task Streamed_256_MiB_Download_Allocates_Far_Less_Than_The_File(string curlProtocol, HttpProtocols protocols)
    {
        await using (var file = File.Create(_server.Storage.PathOf("big.bin")))
        {
            var block = TestData.RandomBytes(1024 * 1024);
            for (var i = 0; i < FileSize / block.Length; i++)
            {
                await file.WriteAsync(block, TestTimeout.Token);
            }
        }

        var url = new Uri(_server.AddressOf(protocols), "/api/files/big.bin").ToString();
        var output = _downloads.PathOf("big.bin");
        await DownloadAsync(curlProtocol, url, output); // warm up: digest, JIT, connection setup

        var before = GC.GetTotalAllocatedBytes(precise: true);
        await DownloadAsync(curlProtocol, url, output);
        var allocated = GC.GetTotalAllocatedBytes(precise: true) - before;

        Assert.Equal(FileSize, new FileInfo(output).Length);
        Assert.True(allocated < 8 * 1024 * 1024, $"The server allocated {allocated:N0} bytes for a {FileSize:N0}-byte download ({curlProtocol}).");
    }

    private static async Task DownloadAsync(string curlProtocol, string url, string output)
    {
        var (exitCode, stderr) = await Interop.CurlDownloadTests.RunCurlAsync("-sS", "--fail", "-H", $"Authorization: Bearer {FileTransferFactory.TestKey}", curlProtocol, "-o", output, url);
        Assert.True(exitCode == 0, stderr);
    }

    public void Dispose()
    {
        _server.Dispose();
        _downloads.Dispose();
    }
}
