using System.Net;
using System.Net.Sockets;
using System.Text;
using FileTransfer.Client.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Client.Tests;

/// <summary>
/// REST uploads the server refuses, with bodies larger than Kestrel drains (its 30 MB default
/// request limit): the server answers and closes the connection while the client could still be
/// sending, and the client must report the server's status, not the broken connection.
/// </summary>
public sealed class UploadRefusalTests : IDisposable
{
    private const int Size = 40 * 1024 * 1024;
    private static readonly byte[] Body = new byte[Size];
    private readonly KestrelFactory _server = new();

    public static TheoryData<string> HttpVersions() => ["1.1", "2.0"];

    [Theory]
    [MemberData(nameof(HttpVersions))]
    public async Task Upload_With_A_Wrong_Key_Is_Unauthenticated(string http)
    {
        using var client = For(http, o => o.ApiKey = "wrong-key-0123456789abcdefghijklmnop");

        var error = await Assert.ThrowsAsync<FileTransferException>(() => client.UploadAsync("refused/key.bin", new MemoryStream(Body), cancellationToken: TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.Unauthenticated, error.Kind);
        Assert.Equal("401", error.Status);
        Assert.Empty(_server.Storage.Files());
    }

    [Theory]
    [MemberData(nameof(HttpVersions))]
    public async Task Upload_Without_Overwrite_Over_An_Existing_File_Is_AlreadyExists(string http)
    {
        var existing = _server.Storage.WriteRandom("refused/keep.bin", 100);
        using var client = For(http);

        var error = await Assert.ThrowsAsync<FileTransferException>(() =>
            client.UploadAsync("refused/keep.bin", new MemoryStream(Body), new UploadOptions { Overwrite = false }, cancellationToken: TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.AlreadyExists, error.Kind);
        Assert.Equal("412", error.Status);
        Assert.Equal(existing, await File.ReadAllBytesAsync(_server.Storage.PathOf("refused/keep.bin"), TestTimeout.Token));
    }

    [Theory]
    [MemberData(nameof(HttpVersions))]
    public async Task Upload_Over_The_Size_Limit_Is_TooLarge(string http)
    {
        _server.With("Storage:MaxFileSizeBytes", (Size / 2).ToString(System.Globalization.CultureInfo.InvariantCulture));
        using var client = For(http);

        var error = await Assert.ThrowsAsync<FileTransferException>(() => client.UploadAsync("refused/big.bin", new MemoryStream(Body), cancellationToken: TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.TooLarge, error.Kind);
        Assert.Equal("413", error.Status);
        Assert.Empty(_server.Storage.Files());
    }

    [Theory]
    [MemberData(nameof(HttpVersions))]
    public async Task Upload_To_A_Folder_Name_Is_Conflict(string http)
    {
        _server.Storage.WriteRandom("refused/folder/inside.bin", 10);
        using var client = For(http);

        var error = await Assert.ThrowsAsync<FileTransferException>(() => client.UploadAsync("refused/folder", new MemoryStream(Body), cancellationToken: TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.Conflict, error.Kind);
        Assert.Equal("409", error.Status);
    }

    [Theory]
    [MemberData(nameof(HttpVersions))]
    public async Task Upload_From_An_Endless_Pipe_Is_TooLarge_And_Stops_Reading_It(string http)
    {
        // No length to refuse up front: the server reads 1 MiB, answers 413 and closes the connection
        // while the body is still being written; that answer is what the client reports, and it
        // stops reading a source that would never end.
        _server.With("Storage:MaxFileSizeBytes", "1048576");
        using var client = For(http);
        var source = new EndlessStream();

        var error = await Assert.ThrowsAsync<FileTransferException>(() => client.UploadAsync("refused/stream.bin", source, cancellationToken: TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.TooLarge, error.Kind);
        Assert.Equal("413", error.Status);
        Assert.DoesNotContain("refused/stream.bin", _server.Storage.Files());
        Assert.InRange(source.BytesRead, 1_048_576, Size);
    }

    [Fact]
    public async Task A_Refusal_That_Arrives_While_The_Body_Is_Sent_Is_Reported_And_The_Source_Is_No_Longer_Read()
    {
        // A server that lets the body start (100 Continue), refuses after 1 MiB and closes the
        // connection with the rest unread, so that the client's next writes meet a reset.
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var refusing = RefuseAfterAsync(listener, 1024 * 1024, "413 Payload Too Large");
        using var client = Clients.For(new Uri($"http://127.0.0.1:{((IPEndPoint)listener.LocalEndpoint).Port}"), FileTransferProtocol.Rest);
        var source = new CountingStream(Body);

        // The digest is given, so the body is the only read of the source.
        var error = await Assert.ThrowsAsync<FileTransferException>(() =>
            client.UploadAsync("refused/known.bin", source, new UploadOptions { Sha256 = new byte[32] }, cancellationToken: TestTimeout.Token));

        await refusing;
        Assert.Equal(FileTransferErrorKind.TooLarge, error.Kind);
        Assert.Equal("413", error.Status);
        Assert.Contains("over the limit", error.Message, StringComparison.Ordinal);
        Assert.InRange(source.BytesRead, 1024 * 1024, Size / 2);
    }

    private static async Task RefuseAfterAsync(TcpListener listener, int bodyBytes, string status)
    {
        using var socket = await listener.AcceptSocketAsync(TestTimeout.Token);
        var buffer = new byte[64 * 1024];
        var head = new StringBuilder();
        while (!head.ToString().Contains("\r\n\r\n", StringComparison.Ordinal))
        {
            // The headers arrive before any of the body: the client waits for 100 Continue.
            var read = await socket.ReceiveAsync(buffer, TestTimeout.Token);
            head.Append(Encoding.ASCII.GetString(buffer, 0, read));
        }

        Assert.Contains("Expect: 100-continue", head.ToString(), StringComparison.OrdinalIgnoreCase);
        await socket.SendAsync("HTTP/1.1 100 Continue\r\n\r\n"u8.ToArray(), TestTimeout.Token);
        for (var received = 0; received < bodyBytes;)
        {
            received += await socket.ReceiveAsync(buffer, TestTimeout.Token);
        }

        const string Problem = """{"title":"File too large","status":413,"detail":"The body is over the limit."}""";
        await socket.SendAsync(Encoding.ASCII.GetBytes(
            $"HTTP/1.1 {status}\r\nConnection: close\r\nContent-Type: application/problem+json\r\nContent-Length: {Problem.Length}\r\n\r\n{Problem}"), TestTimeout.Token);

        // The answer goes out in full, then the close with the body unread resets the connection.
        socket.Shutdown(SocketShutdown.Send);
    }

    private FileTransferClient For(string http, Action<FileTransferClientOptions>? configure = null)
    {
        var version = Version.Parse(http);
        var address = _server.AddressOf(version == HttpVersion.Version20 ? HttpProtocols.Http2 : HttpProtocols.Http1);
        return Clients.For(address, FileTransferProtocol.Rest, o =>
        {
            o.HttpVersion = version;
            configure?.Invoke(o);
        });
    }

    public void Dispose() => _server.Dispose();

    /// <summary>A pipe that never ends (<c>yes |</c>), counting what was read from it.</summary>
    private sealed class EndlessStream : Stream
    {
        private long _bytesRead;

        public long BytesRead => Interlocked.Read(ref _bytesRead);

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position
        {
            get => throw new NotSupportedException();
            set => throw new NotSupportedException();
        }

        public override int Read(byte[] buffer, int offset, int count)
        {
            Array.Fill(buffer, (byte)'y', offset, count);
            Interlocked.Add(ref _bytesRead, count);
            return count;
        }

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }

    /// <summary>A file's bytes, counting how far they were read.</summary>
    private sealed class CountingStream(byte[] bytes) : MemoryStream(bytes, writable: false)
    {
        private long _bytesRead;

        public long BytesRead => Interlocked.Read(ref _bytesRead);

        public override int Read(byte[] buffer, int offset, int count) => Counted(base.Read(buffer, offset, count));

        public override int Read(Span<byte> buffer) => Counted(base.Read(buffer));

        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            ValueTask.FromResult(Read(buffer.Span));

        private int Counted(int read)
        {
            Interlocked.Add(ref _bytesRead, read);
            return read;
        }
    }
}
