using System.Net;
using System.Security.Cryptography;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Uploads;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Storage.S3.Outage;

/// <summary>
/// The gateway dies in the middle of an upload, after its multipart upload began in the store: a REST
/// PUT and a gRPC UploadFile end with 503 + Retry-After / UNAVAILABLE, reason STORAGE_UNAVAILABLE (the
/// transfer log says 503), no half object becomes visible, the previous version stays, and the
/// multipart upload is aborted once the gateway is back (not a day later by the sweep). A tus PATCH and
/// a gRPC WriteUpload end the same way, and once the gateway is back the same client resumes at once
/// (the session's lease is not left standing for a lease's duration) from an offset that keeps what
/// reached the store.
/// </summary>
public sealed class UploadOutageTests(OutageServer fixture) : IClassFixture<OutageServer>
{
    private const int Size = (2 * OutageServer.Part) + 1000;

    // Past the first part: the multipart upload has begun in the store when the gateway dies.
    private const int PauseAt = OutageServer.Part + (OutageServer.Part / 2);

    private static readonly TimeSpan Soon = TimeSpan.FromSeconds(15);

    [Fact]
    public async Task A_Rest_Put_Cut_By_A_Dead_Gateway_Answers_503_Keeps_The_Previous_Version_And_Aborts_Its_Upload_Once_The_Gateway_Is_Back()
    {
        const string Name = "outage/put.bin";
        using var client = KestrelFactory.ClientFor(fixture.Http1, HttpVersion.Version11);
        var previous = TestData.RandomBytes(1000);
        using (var first = await client.PutAsync("/api/files/" + Name, new ByteArrayContent(previous), TestTimeout.Token))
        {
            Assert.Equal(HttpStatusCode.Created, first.StatusCode);
        }

        await AssertRefusedByADeadGatewayAsync(client, new HttpRequestMessage(HttpMethod.Put, "/api/files/" + Name), TestData.RandomBytes(Size), Name);
        Assert.Equal("503", await fixture.LoggedStatusAsync(Name, "503"));

        var stored = await client.GetByteArrayAsync("/api/files/" + Name, TestTimeout.Token);
        Assert.Equal(SHA256.HashData(previous), SHA256.HashData(stored));
        await OutageServer.UntilAsync(async () => await fixture.UploadsOfAsync(Name) == 0, Soon, "the cut upload aborted");
    }

    [Fact]
    public async Task A_Grpc_Upload_Cut_By_A_Dead_Gateway_Ends_Unavailable_Keeps_The_Previous_Version_And_Aborts_Its_Upload()
    {
        const string Name = "outage/grpc.bin";
        var grpc = GrpcClients.For(fixture.Server);
        var previous = TestData.RandomBytes(1000);
        await GrpcTransfers.UploadAsync(grpc, Name, previous, 64 * 1024, TestTimeout.Token);
        var source = TestData.RandomBytes(Size);

        using var call = grpc.UploadFile(cancellationToken: TestTimeout.Token);
        await call.RequestStream.WriteAsync(new UploadFileRequest { Metadata = new FileMetadata { FileName = Name, Overwrite = true } });
        await SendAsync(call.RequestStream, source, 0, PauseAt);
        await fixture.UntilAPartIsStoredAsync(Name);
        fixture.Gateway.Kill();
        try
        {
            var error = await FinishRefusedAsync(call.RequestStream, call.ResponseAsync, source);

            Assert.Equal(StatusCode.Unavailable, error.StatusCode);
            Assert.Equal("STORAGE_UNAVAILABLE", GrpcAssert.Reason(error));
            Assert.Equal("Unavailable", await fixture.LoggedStatusAsync(Name, "Unavailable"));
        }
        finally
        {
            fixture.Gateway.Resume();
        }

        var stored = await GrpcTransfers.DownloadAsync(grpc, Name, TestTimeout.Token);
        Assert.Equal(GrpcTransfers.Sha256Hex(previous), GrpcTransfers.Sha256Hex(stored.Bytes));
        await OutageServer.UntilAsync(async () => await fixture.UploadsOfAsync(Name) == 0, Soon, "the cut upload aborted");
    }

    [Fact]
    public async Task A_Tus_Patch_Cut_By_A_Dead_Gateway_Answers_503_And_Its_Client_Resumes_At_Once_From_What_Reached_The_Store()
    {
        const string Name = "outage/tus.bin";
        using var client = KestrelFactory.ClientFor(fixture.Http1, HttpVersion.Version11);
        var source = TestData.RandomBytes(Size);
        var location = await Tus.CreateAsync(client, Name, source.Length);

        await AssertRefusedByADeadGatewayAsync(client, Tus.Patch(location, 0, []), source, Name);

        // Back: the offset keeps what reached the store (at least the part), and the client goes on at once.
        using var head = await client.SendAsync(Tus.Head(location), TestTimeout.Token);
        var offset = (int)Tus.Offset(head);
        Assert.InRange(offset, OutageServer.Part, PauseAt + OutageServer.Part);
        using var rest = await Tus.AppendAsync(client, location, source, offset, source.Length);
        Assert.Equal(HttpStatusCode.NoContent, rest.StatusCode);
        var stored = await client.GetByteArrayAsync("/api/files/" + Name, TestTimeout.Token);
        Assert.Equal(SHA256.HashData(source), SHA256.HashData(stored));
    }

    [Fact]
    public async Task A_Grpc_WriteUpload_Cut_By_A_Dead_Gateway_Ends_Unavailable_And_Its_Client_Resumes_At_Once_From_What_Reached_The_Store()
    {
        const string Name = "outage/session.bin";
        var grpc = GrpcClients.For(fixture.Server);
        var source = TestData.RandomBytes(Size);
        var created = await grpc.StartUploadAsync(new StartUploadRequest { FileName = Name, Length = source.Length, Overwrite = true }, cancellationToken: TestTimeout.Token);

        using var call = grpc.WriteUpload(cancellationToken: TestTimeout.Token);
        await call.RequestStream.WriteAsync(new WriteUploadRequest { UploadId = created.UploadId, WriteOffset = 0 });
        await SendAsync(call.RequestStream, source, 0, PauseAt);
        await fixture.UntilAPartIsStoredAsync(Name);
        fixture.Gateway.Kill();
        try
        {
            var error = await FinishRefusedAsync(call.RequestStream, call.ResponseAsync, source);

            Assert.Equal(StatusCode.Unavailable, error.StatusCode);
            Assert.Equal("STORAGE_UNAVAILABLE", GrpcAssert.Reason(error));
        }
        finally
        {
            fixture.Gateway.Resume();
        }

        var status = await grpc.GetUploadStatusAsync(new GetUploadStatusRequest { UploadId = created.UploadId }, cancellationToken: TestTimeout.Token);
        var offset = (int)status.Offset;
        Assert.InRange(offset, OutageServer.Part, PauseAt + OutageServer.Part);
        var done = await GrpcSessions.WriteAsync(grpc, created.UploadId, source, offset, source.Length, finish: true);
        Assert.True(done.Complete);
        var stored = await GrpcTransfers.DownloadAsync(grpc, Name, TestTimeout.Token);
        Assert.Equal(GrpcTransfers.Sha256Hex(source), GrpcTransfers.Sha256Hex(stored.Bytes));
    }

    // Sends the request with source as its body, paused past the first part; kills the gateway once
    // that part is in the store, sends the rest: the answer is 503 STORAGE_UNAVAILABLE with
    // Retry-After. The gateway is back afterwards.
    private async Task AssertRefusedByADeadGatewayAsync(HttpClient client, HttpRequestMessage request, byte[] source, string name)
    {
        var resume = new TaskCompletionSource<bool>();
        var contentType = request.Content?.Headers.ContentType;
        request.Content = new PausedContent(source, PauseAt, resume.Task);
        request.Content.Headers.ContentType = contentType;
        var sent = client.SendAsync(request, TestTimeout.Token);
        await fixture.UntilAPartIsStoredAsync(name);
        fixture.Gateway.Kill();
        try
        {
            resume.SetResult(true);
            using var response = await sent;

            var problem = await Problems.AssertAsync(response, HttpStatusCode.ServiceUnavailable);
            Assert.Equal("STORAGE_UNAVAILABLE", problem.GetProperty("reason").GetString());
            Assert.NotNull(response.Headers.RetryAfter);
        }
        finally
        {
            fixture.Gateway.Resume();
            request.Dispose();
        }
    }

    // The rest of the bytes, once the gateway died: the call's status is the answer (the sending
    // itself may fail first, once the server has ended the call).
    private static async Task<RpcException> FinishRefusedAsync<TRequest, TResponse>(IClientStreamWriter<TRequest> stream, Task<TResponse> response, byte[] source)
        where TRequest : IMessage<TRequest>, new()
    {
        try
        {
            await SendAsync(stream, source, PauseAt, source.Length);
            await stream.CompleteAsync();
        }
        catch (RpcException)
        {
            // Ended by the server.
        }

        return await Assert.ThrowsAsync<RpcException>(() => response);
    }

    private static async Task SendAsync<T>(IClientStreamWriter<T> stream, byte[] source, int from, int to)
        where T : IMessage<T>, new()
    {
        for (var offset = from; offset < to; offset += 256 * 1024)
        {
            var chunk = ByteString.CopyFrom(source, offset, Math.Min(256 * 1024, to - offset));
            await stream.WriteAsync(typeof(T) == typeof(UploadFileRequest) ? (T)(object)new UploadFileRequest { Chunk = chunk } : (T)(object)new WriteUploadRequest { Chunk = chunk });
        }
    }
}
