using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using FileTransfer.Client.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Client.Tests;

/// <summary>Every failure is one <see cref="FileTransferException"/> with the same kind over REST and gRPC.</summary>
public sealed class ErrorKindTests : IDisposable
{
    private const string ReadOnlyKey = "read-only-key-0123456789abcdefghij";

    // Connection set-ups per classification test: an outcome that depended on timing would show in some of them.
    private const int Attempts = 50;
    private readonly KestrelFactory _server = new();

    public static TheoryData<FileTransferProtocol> Protocols() => [FileTransferProtocol.Rest, FileTransferProtocol.Grpc];

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Missing_File_Is_NotFound(FileTransferProtocol protocol)
    {
        using var client = Clients.For(_server, protocol);

        var error = await Assert.ThrowsAsync<FileTransferException>(() => client.DownloadAsync("no/such.bin", new MemoryStream(), cancellationToken: TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.NotFound, error.Kind);
        Assert.Equal(protocol == FileTransferProtocol.Grpc ? "NOT_FOUND" : "404", error.Status);
        Assert.Contains("no/such.bin", error.Detail, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Refused_Name_Is_InvalidRequest_With_The_Servers_Reason(FileTransferProtocol protocol)
    {
        using var client = Clients.For(_server, protocol);

        // A download, not an info request: REST answers HEAD without the problem body that says why.
        var error = await Assert.ThrowsAsync<FileTransferException>(() => client.DownloadAsync(".ft-secret", new MemoryStream(), cancellationToken: TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.InvalidRequest, error.Kind);
        Assert.Contains("reserved for the server", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task No_Api_Key_Is_Unauthenticated(FileTransferProtocol protocol)
    {
        _server.Storage.WriteRandom("auth/a.bin", 10);
        using var client = Clients.For(_server, protocol, o => o.ApiKey = null);

        var error = await Assert.ThrowsAsync<FileTransferException>(() => client.GetInfoAsync("auth/a.bin", TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.Unauthenticated, error.Kind);
    }

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Upload_With_A_Read_Only_Key_Is_PermissionDenied_And_Stores_Nothing(FileTransferProtocol protocol)
    {
        _server.With("Auth:ApiKeys:1:Key", ReadOnlyKey).With("Auth:ApiKeys:1:Scopes:0", "read");
        using var client = Clients.For(_server, protocol, o => o.ApiKey = ReadOnlyKey);

        var error = await Assert.ThrowsAsync<FileTransferException>(() => client.UploadAsync("ro/a.bin", new MemoryStream(new byte[10]), cancellationToken: TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.PermissionDenied, error.Kind);
        Assert.Empty(_server.Storage.Files());
    }

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Upload_Without_Overwrite_Over_An_Existing_File_Is_AlreadyExists_And_Keeps_It(FileTransferProtocol protocol)
    {
        var existing = _server.Storage.WriteRandom("keep.bin", 100);
        using var client = Clients.For(_server, protocol);

        var error = await Assert.ThrowsAsync<FileTransferException>(() =>
            client.UploadAsync("keep.bin", new MemoryStream(new byte[200_000]), new UploadOptions { Overwrite = false }, cancellationToken: TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.AlreadyExists, error.Kind);
        Assert.Equal(existing, await File.ReadAllBytesAsync(_server.Storage.PathOf("keep.bin"), TestTimeout.Token));
    }

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Upload_Over_The_Size_Limit_Is_TooLarge_And_Stores_Nothing(FileTransferProtocol protocol)
    {
        _server.With("Storage:MaxFileSizeBytes", "1000");
        using var client = Clients.For(_server, protocol);

        var error = await Assert.ThrowsAsync<FileTransferException>(() => client.UploadAsync("big.bin", new MemoryStream(new byte[5000]), cancellationToken: TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.TooLarge, error.Kind);
        Assert.DoesNotContain("big.bin", _server.Storage.Files());
    }

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Upload_With_A_Wrong_Digest_Is_DigestMismatch_And_Stores_Nothing(FileTransferProtocol protocol)
    {
        using var client = Clients.For(_server, protocol);
        var wrong = SHA256.HashData("something else"u8);

        var error = await Assert.ThrowsAsync<FileTransferException>(() =>
            client.UploadAsync("digest.bin", new MemoryStream(new byte[50_000]), new UploadOptions { Sha256 = wrong }, cancellationToken: TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.DigestMismatch, error.Kind);
        Assert.DoesNotContain("digest.bin", _server.Storage.Files());
    }

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Too_Many_Requests_Is_RateLimited_With_The_Delay_The_Server_Asked_For(FileTransferProtocol protocol)
    {
        _server.With("RateLimit:Burst", "1").With("RateLimit:PermitsPerSecond", "1");
        _server.Storage.WriteRandom("rate/a.bin", 10);
        using var client = Clients.For(_server, protocol);

        var error = await Assert.ThrowsAsync<FileTransferException>(async () =>
        {
            for (var i = 0; i < 5; i++)
            {
                await client.GetInfoAsync("rate/a.bin", TestTimeout.Token);
            }
        });

        Assert.Equal(FileTransferErrorKind.RateLimited, error.Kind);
        Assert.NotNull(error.RetryAfter);
        Assert.InRange(error.RetryAfter.Value, TimeSpan.FromMilliseconds(1), TimeSpan.FromSeconds(2));
    }

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Unreachable_Server_Is_ConnectionLost(FileTransferProtocol protocol)
    {
        using var client = Clients.For(new Uri("http://127.0.0.1:1"), protocol);

        var error = await Assert.ThrowsAsync<FileTransferException>(() => client.GetInfoAsync("a.bin", TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.ConnectionLost, error.Kind);
        Assert.Contains("Cannot reach http://127.0.0.1:1", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Grpc_To_A_Port_Without_Http2_Is_ProtocolUnavailable()
    {
        // Kestrel's HTTP/1.1 port answers the HTTP/2 preface with GOAWAY(HTTP_1_1_REQUIRED), then closes.
        for (var attempt = 0; attempt < Attempts; attempt++)
        {
            using var client = Clients.For(_server.AddressOf(HttpProtocols.Http1), FileTransferProtocol.Grpc);

            var error = await Assert.ThrowsAsync<FileTransferException>(() => client.GetInfoAsync("a.bin", TestTimeout.Token));

            Assert.True(error.Kind == FileTransferErrorKind.ProtocolUnavailable, $"attempt {attempt}: {error.Kind}: {error.Message}");
            Assert.Contains("does not speak gRPC on this port", error.Message, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Grpc_To_A_Server_That_Resets_During_The_Http2_Handshake_Is_ConnectionLost(bool upload)
    {
        // Reads the client's connection preface, then resets: the client is waiting for SETTINGS,
        // and its writer (request HEADERS, upload DATA) may meet the reset before its reader does.
        // Each attempt is a new connection, so each is another draw of that race.
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var resets = Task.Run(async () =>
        {
            while (true)
            {
                using var socket = await listener.AcceptSocketAsync(TestTimeout.Token);
                var preface = new byte[24];
                for (var read = 0; read < preface.Length;)
                {
                    read += await socket.ReceiveAsync(preface.AsMemory(read), TestTimeout.Token);
                }

                socket.LingerState = new LingerOption(true, 0);
            }
        });
        var address = new Uri($"http://127.0.0.1:{((IPEndPoint)listener.LocalEndpoint).Port}");

        for (var attempt = 0; attempt < Attempts; attempt++)
        {
            using var client = Clients.For(address, FileTransferProtocol.Grpc, o => o.MaxRetries = 0);

            var error = await Assert.ThrowsAsync<FileTransferException>(() => upload
                ? client.UploadAsync("a.bin", new MemoryStream(new byte[300_000]), cancellationToken: TestTimeout.Token)
                : client.GetInfoAsync("a.bin", TestTimeout.Token));

            Assert.True(error.Kind == FileTransferErrorKind.ConnectionLost, $"attempt {attempt}: {error.Kind}: {error.Message}");
        }

        Assert.False(resets.IsFaulted, resets.Exception?.ToString());
    }

    [Fact]
    public async Task Signed_Link_Over_Grpc_Is_InvalidRequest()
    {
        using var client = Clients.For(_server, FileTransferProtocol.Grpc);

        var error = await Assert.ThrowsAsync<FileTransferException>(() => client.GetInfoAsync("http://127.0.0.1:5000/api/files/a.bin?sig=x", TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.InvalidRequest, error.Kind);
        Assert.Contains("REST", error.Message, StringComparison.Ordinal);
    }

    public void Dispose() => _server.Dispose();
}
