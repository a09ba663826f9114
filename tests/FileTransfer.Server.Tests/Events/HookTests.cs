using System.Diagnostics;
using System.Net;
using FileTransfer.Core;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Uploads;
using Google.Protobuf;
using Google.Rpc;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Events;

/// <summary>Hooks: the pre-upload hook refuses any upload, on every protocol, before a byte is kept; no answer refuses too; the pre-commit hook refuses verified bytes and keeps the previous version.</summary>
public sealed class HookTests
{
    [Fact]
    public async Task A_Refusing_Pre_Upload_Hook_Refuses_Rest_Tus_And_Grpc_With_Its_Message()
    {
        await using var hook = await WebhookReceiver.StartAsync();
        hook.Answer = context => Results.Json(new { message = "No videos here." }, statusCode: 422).ExecuteAsync(context);
        using var server = new KestrelFactory().WithHook("PreUpload", hook);
        using var http = KestrelFactory.ClientFor(server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);

        using var put = new HttpRequestMessage(HttpMethod.Put, "api/files/v/clip.mp4") { Content = new ByteArrayContent(new byte[1000]) };
        var problem = await Problems.AssertAsync(await http.SendAsync(put, TestTimeout.Token), HttpStatusCode.Forbidden);
        Assert.Equal("UPLOAD_REJECTED", problem.GetProperty("reason").GetString());
        Assert.Equal("No videos here.", problem.GetProperty("detail").GetString());

        var tus = await Problems.AssertAsync(await http.SendAsync(Tus.Create(5, ("filename", "clip2.mp4")), TestTimeout.Token), HttpStatusCode.Forbidden);
        Assert.Equal("UPLOAD_REJECTED", tus.GetProperty("reason").GetString());

        var grpc = GrpcClients.For(server);
        var refused = await Assert.ThrowsAsync<RpcException>(async () =>
        {
            using var upload = grpc.UploadFile(cancellationToken: TestTimeout.Token);
            await upload.RequestStream.WriteAsync(new UploadFileRequest { Metadata = new FileMetadata { FileName = "v/clip3.mp4", Size = 3 } });
            await upload.RequestStream.WriteAsync(new UploadFileRequest { Chunk = ByteString.CopyFrom(1, 2, 3) });
            await upload.RequestStream.CompleteAsync();
            await upload;
        });
        Assert.Equal(StatusCode.PermissionDenied, refused.StatusCode);
        Assert.Equal("UPLOAD_REJECTED", refused.GetRpcStatus()!.GetDetail<ErrorInfo>().Reason);
        var started = await Assert.ThrowsAsync<RpcException>(async () => await grpc.StartUploadAsync(new StartUploadRequest { FileName = "v/clip4.mp4" }, cancellationToken: TestTimeout.Token));
        Assert.Equal(StatusCode.PermissionDenied, started.StatusCode);

        Assert.Empty(Directory.EnumerateFiles(server.Storage.RootPath, "clip*", SearchOption.AllDirectories));
        var asked = hook.Requests.First().Event;
        Assert.Equal((FileEventTypes.PreUpload, "v/clip.mp4", 1000, "rest"), (asked.GetProperty("type").GetString(), asked.GetProperty("name").GetString(), asked.GetProperty("size").GetInt64(), asked.GetProperty("protocol").GetString()));
        Assert.StartsWith("key:", asked.GetProperty("caller").GetString(), StringComparison.Ordinal);
        Assert.Equal(["rest", "tus", "grpc", "grpc"], hook.Requests.Select(r => r.Event.GetProperty("protocol").GetString()));
        Assert.All(hook.Requests, r => Assert.True(r.Verified));
    }

    [Fact]
    public async Task A_Hook_That_Does_Not_Answer_In_Time_Refuses_As_Unavailable()
    {
        await using var hook = await WebhookReceiver.StartAsync();
        hook.Mode = WebhookReceiver.Behaviour.Hang;
        using var server = new KestrelFactory().WithHook("PreUpload", hook);
        server.With("Hooks:PreUpload:TimeoutMs", "300");
        using var http = KestrelFactory.ClientFor(server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);

        var timer = Stopwatch.StartNew();
        using var put = new HttpRequestMessage(HttpMethod.Put, "api/files/late.bin") { Content = new ByteArrayContent([1]) };
        var problem = await Problems.AssertAsync(await http.SendAsync(put, TestTimeout.Token), HttpStatusCode.ServiceUnavailable);
        Assert.Equal("HOOK_UNAVAILABLE", problem.GetProperty("reason").GetString());
        Assert.True(timer.Elapsed < TimeSpan.FromSeconds(5), timer.Elapsed.ToString());

        var refused = await Assert.ThrowsAsync<RpcException>(async () => await GrpcClients.For(server).StartUploadAsync(new StartUploadRequest { FileName = "late2.bin" }, cancellationToken: TestTimeout.Token));
        Assert.Equal(StatusCode.Unavailable, refused.StatusCode);
        Assert.Equal("HOOK_UNAVAILABLE", refused.GetRpcStatus()!.GetDetail<ErrorInfo>().Reason);
        Assert.False(File.Exists(server.Storage.PathOf("late.bin")));
    }

    [Fact]
    public async Task A_Hook_That_Is_Down_Refuses_As_Unavailable()
    {
        using var server = new FileTransferFactory().With("Hooks:PreUpload:Url", "http://127.0.0.1:9/hook").With("Hooks:PreUpload:Secret", WebhookReceiver.NewSecret());
        using var client = server.CreateClient();
        using var put = new HttpRequestMessage(HttpMethod.Put, "api/files/down.bin") { Content = new ByteArrayContent([1]) };
        var problem = await Problems.AssertAsync(await client.SendAsync(put, TestTimeout.Token), HttpStatusCode.ServiceUnavailable);
        Assert.Equal("HOOK_UNAVAILABLE", problem.GetProperty("reason").GetString());
    }

    [Theory]
    [InlineData(400)]
    [InlineData(200)]
    public async Task A_Hook_Answering_A_Huge_Body_Is_Not_Read_Past_Its_Message(int status)
    {
        await using var hook = await WebhookReceiver.StartAsync();
        hook.Answer = async context =>
        {
            // 256 MiB unless the server stops reading: it must take the first few KiB at most.
            context.Response.StatusCode = status;
            context.Response.ContentType = "text/plain";
            var block = new byte[64 * 1024];
            Array.Fill(block, (byte)'x');
            for (var i = 0; i < 4096 && !context.RequestAborted.IsCancellationRequested; i++)
            {
                await context.Response.Body.WriteAsync(block, context.RequestAborted);
            }
        };
        using var server = new FileTransferFactory().WithHook("PreUpload", hook);
        using var client = server.CreateClient();

        var timer = Stopwatch.StartNew();
        using var put = new HttpRequestMessage(HttpMethod.Put, "api/files/huge.bin") { Content = new ByteArrayContent([1]) };
        using var response = await client.SendAsync(put, TestTimeout.Token);
        Assert.True(timer.Elapsed < TimeSpan.FromSeconds(4), timer.Elapsed.ToString());
        if (status == 200)
        {
            Assert.Equal(HttpStatusCode.Created, response.StatusCode);
            return;
        }

        var problem = await Problems.AssertAsync(response, HttpStatusCode.Forbidden);
        Assert.Equal("UPLOAD_REJECTED", problem.GetProperty("reason").GetString());
        Assert.Equal(new string('x', UploadHooks.MaxMessageLength), problem.GetProperty("detail").GetString());
    }

    [Fact]
    public async Task A_Refusing_Pre_Commit_Hook_Discards_Verified_Bytes_And_Keeps_The_Previous_Version()
    {
        await using var hook = await WebhookReceiver.StartAsync();
        using var server = new FileTransferFactory().WithHook("PreCommit", hook);
        using var client = server.CreateClient();
        await client.PutAsync("kept.bin", [1, 2, 3]);
        hook.Answer = context => Results.Text("Infected.", statusCode: 403).ExecuteAsync(context);
        var replacement = TestData.RandomBytes(5000);

        using var put = new HttpRequestMessage(HttpMethod.Put, "api/files/kept.bin") { Content = new ByteArrayContent(replacement) };
        var problem = await Problems.AssertAsync(await client.SendAsync(put, TestTimeout.Token), HttpStatusCode.Forbidden);
        Assert.Equal(("UPLOAD_REJECTED", "Infected."), (problem.GetProperty("reason").GetString(), problem.GetProperty("detail").GetString()));
        Assert.Equal([1, 2, 3], await File.ReadAllBytesAsync(server.Storage.PathOf("kept.bin"), TestTimeout.Token));

        var tus = await Tus.CreateAsync(client, "kept.bin", replacement.Length);
        var refused = await Problems.AssertAsync(await Tus.AppendAsync(client, tus, replacement, 0, replacement.Length), HttpStatusCode.Forbidden);
        Assert.Equal("UPLOAD_REJECTED", refused.GetProperty("reason").GetString());
        Assert.Equal([1, 2, 3], await File.ReadAllBytesAsync(server.Storage.PathOf("kept.bin"), TestTimeout.Token));
        using var head = await client.SendAsync(Tus.Head(tus), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.NotFound, head.StatusCode);

        var asked = hook.Requests.Select(r => r.Event).Where(e => e.GetProperty("size").GetInt64() == replacement.Length).ToList();
        Assert.Equal(2, asked.Count);
        Assert.All(asked, e => Assert.Equal((FileEventTypes.PreCommit, EventServers.Sha256Hex(replacement)), (e.GetProperty("type").GetString(), e.GetProperty("sha256").GetString())));
        Assert.Equal(["rest", "tus"], asked.Select(e => e.GetProperty("protocol").GetString()));
    }

    [Fact]
    public async Task A_Pre_Commit_Hook_That_Does_Not_Answer_Keeps_The_Session_And_A_Later_Commit_Stores_It()
    {
        await using var hook = await WebhookReceiver.StartAsync();
        using var server = new KestrelFactory().WithHook("PreCommit", hook);
        server.With("Hooks:PreCommit:TimeoutMs", "300");
        using var http = KestrelFactory.ClientFor(server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        await http.PutAsync("later.bin", [1, 2, 3]);
        var replacement = TestData.RandomBytes(70_000);
        hook.Mode = WebhookReceiver.Behaviour.Hang;

        // tus: every byte arrives and is verified, the hook is silent: refused, the session and its bytes stay.
        var tus = await Tus.CreateAsync(http, "later.bin", replacement.Length);
        var problem = await Problems.AssertAsync(await Tus.AppendAsync(http, tus, replacement, 0, replacement.Length), HttpStatusCode.ServiceUnavailable);
        Assert.Equal("HOOK_UNAVAILABLE", problem.GetProperty("reason").GetString());
        Assert.Equal([1, 2, 3], await File.ReadAllBytesAsync(server.Storage.PathOf("later.bin"), TestTimeout.Token));
        using (var head = await http.SendAsync(Tus.Head(tus), TestTimeout.Token))
        {
            Assert.Equal(replacement.Length, Tus.Offset(head));
        }

        // gRPC: the same for a finishing WriteUpload.
        var grpc = GrpcClients.For(server);
        var started = await grpc.StartUploadAsync(new StartUploadRequest { FileName = "later2.bin", Length = replacement.Length }, cancellationToken: TestTimeout.Token);
        var refused = await Assert.ThrowsAsync<RpcException>(async () => await WriteAsync(grpc, started.UploadId, 0, replacement));
        Assert.Equal((StatusCode.Unavailable, "HOOK_UNAVAILABLE"), (refused.StatusCode, refused.GetRpcStatus()!.GetDetail<ErrorInfo>().Reason));
        Assert.Equal(replacement.Length, (await grpc.GetUploadStatusAsync(new GetUploadStatusRequest { UploadId = started.UploadId }, cancellationToken: TestTimeout.Token)).Offset);
        Assert.False(File.Exists(server.Storage.PathOf("later2.bin")));

        // The hook answers again: the commit asked for again, with no bytes, stores each file.
        hook.Mode = WebhookReceiver.Behaviour.Accept;
        using (var commit = await http.SendAsync(Tus.Patch(tus, replacement.Length, []), TestTimeout.Token))
        {
            Assert.Equal(HttpStatusCode.NoContent, commit.StatusCode);
        }

        var stored = await WriteAsync(grpc, started.UploadId, replacement.Length, []);
        Assert.True(stored.Complete);
        Assert.Equal(replacement, await File.ReadAllBytesAsync(server.Storage.PathOf("later.bin"), TestTimeout.Token));
        Assert.Equal(replacement, await File.ReadAllBytesAsync(server.Storage.PathOf("later2.bin"), TestTimeout.Token));
    }

    private static async Task<UploadStatus> WriteAsync(FileService.FileServiceClient grpc, string uploadId, long offset, byte[] bytes)
    {
        using var write = grpc.WriteUpload(cancellationToken: TestTimeout.Token);
        await write.RequestStream.WriteAsync(new WriteUploadRequest { UploadId = uploadId, WriteOffset = offset, Chunk = ByteString.CopyFrom(bytes), Finish = true });
        await write.RequestStream.CompleteAsync();
        return await write;
    }
}
