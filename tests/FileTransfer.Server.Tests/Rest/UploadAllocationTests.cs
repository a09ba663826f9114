using System.Net;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Rest;

/// <summary>Allocation is measured process-wide, so these run alone.</summary>
[CollectionDefinition(nameof(AllocationCollection), DisableParallelization = true)]
public sealed class AllocationCollection;

[Collection(nameof(AllocationCollection))]
public sealed class UploadAllocationTests : IDisposable
{
    private const int FileSize = 256 * 1024 * 1024;
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _source = new();

    [Fact]
    public async Task Streamed_256_MiB_Upload_Allocates_Far_Less_Than_The_File()
    {
        var path = _source.PathOf("source.bin");
        await using (var file = File.Create(path))
        {
            var block = TestData.RandomBytes(1024 * 1024);
            for (var i = 0; i < FileSize / block.Length; i++)
            {
                await file.WriteAsync(block, TestTimeout.Token);
            }
        }

        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        using (var warmup = await client.PutAsync("/api/files/warmup.bin", new ByteArrayContent(TestData.RandomBytes(1000)), TestTimeout.Token))
        {
            Assert.Equal(HttpStatusCode.Created, warmup.StatusCode);
        }

        var before = GC.GetTotalAllocatedBytes(precise: true);
        await using (var body = File.OpenRead(path))
        {
            using var response = await client.PutAsync("/api/files/big.bin", new StreamContent(body, 64 * 1024), TestTimeout.Token);
            Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        }

        var allocated = GC.GetTotalAllocatedBytes(precise: true) - before;

        // Client and server together, in this process. Published bar for a streamed upload: ~1 MB per 1000 MB.
        Assert.True(allocated < 8 * 1024 * 1024, $"Allocated {allocated:N0} bytes for a {FileSize:N0}-byte upload.");
        Assert.Equal(new FileInfo(path).Length, new FileInfo(_server.Storage.PathOf("big.bin")).Length);
    }

    public void Dispose()
    {
        _server.Dispose();
        _source.Dispose();
    }
}
