using System.IO.Pipelines;
using System.Net;
using System.Net.Http.Headers;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Grpc.Net.Client;

namespace FileTransfer.Server.Tests.Uploads;

/// <summary>
/// The built server as a process, killed outright mid-upload and started again over the same
/// storage root: the upload continues from the offset that was durable, and the stored file has
/// the SHA-256 of every byte.
/// </summary>
public sealed class RestartTests : IDisposable
{
    private const int Checkpoint = 256 * 1024;
    private const int Sent = (1024 * 1024) + 100_000;
    private readonly TempStorage _storage = new();

    [Fact]
    public async Task A_Client_Cut_Off_Then_A_Server_Killed_Continues_From_What_Was_Kept()
    {
        var source = TestData.RandomBytes(3 * 1024 * 1024);
        Uri location;
        long kept;
        await using (var server = await StartAsync())
        {
            using var http = Http(server);
            location = await Tus.CreateAsync(http, "restart/cut.bin", source.Length);

            // The client dies after 1 MiB + 100,000 bytes: the server keeps what it wrote (whole blocks
            // at least, more than the last checkpoint it saved), and says so after a restart.
            using (var cut = new CancellationTokenSource())
            {
                var pipe = new Pipe();
                var sending = http.SendAsync(Patch(location, 0, pipe), cut.Token);
                await pipe.Writer.WriteAsync(source.AsMemory(0, Sent), TestTimeout.Token);
                await WaitUntilAsync(() => PartBytes() >= 1024 * 1024);
                await cut.CancelAsync();
                await Assert.ThrowsAnyAsync<OperationCanceledException>(() => sending);
            }

            kept = await WaitForOffsetAsync(http, location, offset => offset > 0);
        } // killed, not stopped

        Assert.InRange(kept, 1024 * 1024, Sent);
        await using var restarted = await StartAsync();
        using var again = Http(restarted);
        using var head = await again.SendAsync(Tus.Head(Relocated(location, again)), TestTimeout.Token);
        Assert.Equal(kept, Tus.Offset(head));
        using var rest = await Tus.AppendAsync(again, Relocated(location, again), source, (int)kept, source.Length);

        Assert.Equal(HttpStatusCode.NoContent, rest.StatusCode);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(File.ReadAllBytes(_storage.PathOf("restart/cut.bin"))));
    }

    [Fact]
    public async Task A_Server_Killed_Mid_Append_Resumes_From_Its_Last_Checkpoint_Over_Grpc()
    {
        var source = TestData.RandomBytes(2 * 1024 * 1024);
        Uri location;
        var server = await StartAsync();
        {
            using var http = Http(server);
            location = await Tus.CreateAsync(http, "restart/killed.bin", source.Length);
            var pipe = new Pipe();
            var sending = http.SendAsync(Patch(location, 0, pipe), TestTimeout.Token);
            await pipe.Writer.WriteAsync(source.AsMemory(0, (3 * Checkpoint) + 5000), TestTimeout.Token);
            await WaitUntilAsync(() => PartBytes() >= 3 * Checkpoint);
            await server.DisposeAsync(); // killed mid-request
            pipe.Writer.Complete(); // the client notices when it sends the rest
            await Assert.ThrowsAnyAsync<HttpRequestException>(() => sending);
        }

        Assert.DoesNotContain("restart/killed.bin", _storage.VisibleFiles());
        await using var restarted = await StartAsync();
        using var channel = GrpcChannel.ForAddress(restarted.Http2, new GrpcChannelOptions { HttpHandler = new SocketsHttpHandler(), MaxSendMessageSize = 16 * 1024 * 1024 });
        var grpc = new FileService.FileServiceClient(channel);
        var headers = new global::Grpc.Core.Metadata { { "authorization", "Bearer " + FileTransferFactory.TestKey } };
        var uploadId = location.Segments[^1];
        var status = await grpc.GetUploadStatusAsync(new GetUploadStatusRequest { UploadId = uploadId }, headers, cancellationToken: TestTimeout.Token);

        // Only saved bytes count: a multiple of the checkpoint, never more than arrived.
        Assert.Equal(0, status.Offset % Checkpoint);
        Assert.InRange(status.Offset, Checkpoint, 3 * Checkpoint);
        using var call = grpc.WriteUpload(headers, cancellationToken: TestTimeout.Token);
        await call.RequestStream.WriteAsync(new WriteUploadRequest { UploadId = uploadId, WriteOffset = status.Offset, Chunk = Google.Protobuf.ByteString.CopyFrom(source, (int)status.Offset, source.Length - (int)status.Offset), Finish = true });
        await call.RequestStream.CompleteAsync();
        var done = await call;

        Assert.True(done.Complete);
        Assert.Equal(System.Security.Cryptography.SHA256.HashData(source), done.File.Sha256.ToByteArray());
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(File.ReadAllBytes(_storage.PathOf("restart/killed.bin"))));
    }

    public void Dispose() => _storage.Dispose();

    private Task<ServerProcess> StartAsync() => ServerProcess.StartAsync(new Dictionary<string, string>
    {
        ["Storage__RootPath"] = _storage.RootPath,
        ["Auth__ApiKeys__0__Key"] = FileTransferFactory.TestKey,
        ["Auth__ApiKeys__0__Scopes__0"] = "write",
        ["Uploads__CheckpointBytes"] = Checkpoint.ToString(System.Globalization.CultureInfo.InvariantCulture),
    });

    private static HttpClient Http(ServerProcess server) => new()
    {
        BaseAddress = server.Http1,
        DefaultRequestHeaders = { Authorization = new AuthenticationHeaderValue("Bearer", FileTransferFactory.TestKey) },
    };

    // The restarted server listens on another port: the same upload path on its address.
    private static Uri Relocated(Uri location, HttpClient client) => new(client.BaseAddress!, location.AbsolutePath);

    private static HttpRequestMessage Patch(Uri location, long offset, Pipe body)
    {
        var request = Tus.Patch(location, offset, []);
        request.Content = new StreamContent(body.Reader.AsStream());
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/offset+octet-stream");
        return request;
    }

    private long PartBytes() =>
        _storage.Files().Where(f => f.EndsWith(".part", StringComparison.Ordinal)).Sum(f => new FileInfo(_storage.PathOf(f)).Length);

    private static async Task WaitUntilAsync(Func<bool> condition)
    {
        var token = TestTimeout.Token;
        while (!condition())
        {
            await Task.Delay(20, token);
        }
    }

    private static async Task<long> WaitForOffsetAsync(HttpClient http, Uri location, Func<long, bool> condition)
    {
        var token = TestTimeout.Token;
        while (true)
        {
            using var head = await http.SendAsync(Tus.Head(location), token);
            if (head.StatusCode == HttpStatusCode.OK && condition(Tus.Offset(head)))
            {
                return Tus.Offset(head);
            }

            await Task.Delay(20, token);
        }
    }
}
