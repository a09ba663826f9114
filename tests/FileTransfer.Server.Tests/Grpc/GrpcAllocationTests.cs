using System.Text.Json;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Rest;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>
/// Server-side allocations of a large DownloadFile and UploadFile. The server runs as its own process, so its
/// allocation counter (GET /debug/runtime) measures the server alone, not the .NET client here,
/// which necessarily allocates every chunk it receives.
/// </summary>
[Collection(nameof(AllocationCollection))]
public sealed class GrpcAllocationTests : IDisposable
{
    private const int FileSize = 64 * 1024 * 1024;
    private readonly TempStorage _storage = new();

    [Fact]
    public async Task A_64_MiB_Download_Allocates_Far_Less_Than_The_File_On_The_Server()
    {
        await using (var file = File.Create(_storage.PathOf("big.bin")))
        {
            var block = TestData.RandomBytes(1024 * 1024);
            for (var i = 0; i < FileSize / block.Length; i++)
            {
                await file.WriteAsync(block, TestTimeout.Token);
            }
        }

        await using var server = await ServerProcess.StartAsync(new Dictionary<string, string>
        {
            ["Storage__RootPath"] = _storage.RootPath,
            ["Diagnostics__EnableRuntimeEndpoint"] = "true",
            ["Auth__ApiKeys__0__Key"] = FileTransferFactory.TestKey,
            ["Auth__ApiKeys__0__Scopes__0"] = "read",
        });
        using var http = new HttpClient { BaseAddress = server.Http1 };
        var client = new FileService.FileServiceClient(GrpcClients.Channel(server.Http2));
        await DownloadAsync(client); // warm up: digest, JIT, connection setup

        var before = await AllocatedAsync(http);
        var received = await DownloadAsync(client);
        var allocated = await AllocatedAsync(http) - before;

        Assert.Equal(FileSize, received);
        // A copy per chunk (ByteString.CopyFrom) alone would allocate the whole 64 MiB again.
        Assert.True(allocated < FileSize / 8, $"The server allocated {allocated:N0} bytes for a {FileSize:N0}-byte download.");
    }

    [Fact]
    public async Task A_64_MiB_Upload_Allocates_Far_Less_Than_The_File_On_The_Server()
    {
        var bytes = TestData.RandomBytes(FileSize);
        await using var server = await ServerProcess.StartAsync(new Dictionary<string, string>
        {
            ["Storage__RootPath"] = _storage.RootPath,
            ["Diagnostics__EnableRuntimeEndpoint"] = "true",
            ["Auth__ApiKeys__0__Key"] = FileTransferFactory.TestKey,
            ["Auth__ApiKeys__0__Scopes__0"] = "write",
        });
        using var http = new HttpClient { BaseAddress = server.Http1 };
        var client = new FileService.FileServiceClient(GrpcClients.Channel(server.Http2, FileTransferFactory.TestKey));
        await GrpcTransfers.UploadAsync(client, "warm-up.bin", bytes.AsSpan(0, 1024 * 1024).ToArray(), 32 * 1024, TestTimeout.Token);

        var before = await AllocatedAsync(http);
        var stored = await GrpcTransfers.UploadAsync(client, "big.bin", bytes, 32 * 1024, TestTimeout.Token);
        var allocated = await AllocatedAsync(http) - before;

        Assert.Equal(System.Security.Cryptography.SHA256.HashData(bytes), stored.Metadata.Sha256.ToByteArray());
        Assert.Equal(bytes, await File.ReadAllBytesAsync(_storage.PathOf("big.bin"), TestTimeout.Token));
        // Protobuf's parser copies every chunk into a new array: that alone would allocate the whole 64 MiB again.
        Assert.True(allocated < FileSize / 8, $"The server allocated {allocated:N0} bytes for a {FileSize:N0}-byte upload.");
    }

    private static async Task<long> DownloadAsync(FileService.FileServiceClient client)
    {
        using var call = client.DownloadFile(new DownloadFileRequest { FileName = "big.bin" }, cancellationToken: TestTimeout.Token);
        long received = 0;
        while (await call.ResponseStream.MoveNext(TestTimeout.Token))
        {
            received += call.ResponseStream.Current.Chunk.Length;
        }

        return received;
    }

    private static async Task<long> AllocatedAsync(HttpClient http) =>
        (await http.GetFromJsonAsync<JsonElement>("/debug/runtime", TestTimeout.Token)).GetProperty("totalAllocatedBytes").GetInt64();

    public void Dispose() => _storage.Dispose();
}
