using System.Diagnostics;
using System.Net.Sockets;
using System.Text;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>
/// An upload whose client stops sending is cut off by the same rule on both protocols: the minimum
/// request body data rate (<c>Connections:MinDataRateBytesPerSecond</c> after
/// <c>Connections:MinDataRateGracePeriod</c>), and leaves no temporary file behind.
/// </summary>
public sealed class IdleUploadTests : IDisposable
{
    private readonly KestrelFactory _server = (KestrelFactory)new KestrelFactory().With("Connections:MinDataRateGracePeriod", "00:00:02");

    [Fact]
    public async Task A_Grpc_Upload_That_Stops_Sending_Is_Cut_Off_And_Stores_Nothing()
    {
        var old = _server.Storage.WriteRandom("idle/kept.bin", 1000);
        var client = GrpcClients.For(_server);
        using var call = client.UploadFile(cancellationToken: TestTimeout.Token);
        await call.RequestStream.WriteAsync(new UploadFileRequest { Metadata = new FileMetadata { FileName = "idle/kept.bin", Overwrite = true } }, TestTimeout.Token);
        await call.RequestStream.WriteAsync(new UploadFileRequest { Chunk = ByteString.CopyFrom(new byte[100]) }, TestTimeout.Token);
        var clock = Stopwatch.StartNew();

        // ... and then nothing: the server must not wait for ever.
        var error = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);

        Assert.True(clock.Elapsed > TimeSpan.FromSeconds(1), error.ToString());
        Assert.InRange(clock.Elapsed, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(30));
        Assert.Equal(StatusCode.DeadlineExceeded, error.StatusCode);
        Assert.Equal("UPLOAD_IDLE", GrpcAssert.Reason(error));
        await WaitUntilAsync(() => _server.Storage.TempFiles().Count == 0);
        Assert.Equal(old, await File.ReadAllBytesAsync(_server.Storage.PathOf("idle/kept.bin"), TestTimeout.Token));
    }

    [Fact]
    public async Task A_Rest_Upload_That_Stops_Sending_Is_Cut_Off_By_The_Same_Rule()
    {
        var old = _server.Storage.WriteRandom("idle/kept.bin", 1000);
        var address = _server.AddressOf(HttpProtocols.Http1);
        using var tcp = new TcpClient();
        await tcp.ConnectAsync(address.Host, address.Port, TestTimeout.Token);
        var stream = tcp.GetStream();
        var clock = Stopwatch.StartNew();

        // 100 of the 10,000 bytes the request announces, and then nothing.
        await stream.WriteAsync(Encoding.ASCII.GetBytes($"PUT /api/files/idle/kept.bin HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {FileTransferFactory.TestKey}\r\nContent-Length: 10000\r\n\r\n"), TestTimeout.Token);
        await stream.WriteAsync(new byte[100], TestTimeout.Token);
        using var received = new MemoryStream();
        await stream.CopyToAsync(received, TestTimeout.Token);

        Assert.InRange(clock.Elapsed, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(30));
        Assert.StartsWith("HTTP/1.1 408", Encoding.ASCII.GetString(received.ToArray()), StringComparison.Ordinal);
        await WaitUntilAsync(() => _server.Storage.TempFiles().Count == 0);
        Assert.Equal(old, await File.ReadAllBytesAsync(_server.Storage.PathOf("idle/kept.bin"), TestTimeout.Token));
    }

    private static async Task WaitUntilAsync(Func<bool> condition)
    {
        for (var i = 0; i < 100 && !condition(); i++)
        {
            await Task.Delay(100, TestTimeout.Token);
        }

        Assert.True(condition());
    }

    public void Dispose() => _server.Dispose();
}
