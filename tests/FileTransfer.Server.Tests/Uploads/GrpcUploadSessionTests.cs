using System.Security.Cryptography;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Diagnostics;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Google.Rpc;
using Grpc.Core;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Uploads;

/// <summary>StartUpload, GetUploadStatus, WriteUpload and CancelUpload on real Kestrel over HTTP/2.</summary>
public sealed class GrpcUploadSessionTests : IDisposable
{
    private const string WriteOnlyKey = "write-only-key-0123456789abcdef";

    private readonly KestrelFactory _server = (KestrelFactory)new KestrelFactory()
        .With("Auth:ApiKeys:1:Key", WriteOnlyKey).With("Auth:ApiKeys:1:Scopes:0", "write");

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(256 * 1024)]
    [InlineData((5 * 1024 * 1024) + 77)]
    public async Task Written_In_Three_Calls_Stores_The_File_With_Its_SHA256(int size)
    {
        var source = TestData.RandomBytes(size);
        var client = GrpcClients.For(_server);
        var started = await client.StartUploadAsync(new StartUploadRequest { FileName = "grpc/three.bin", Length = size, Sha256 = ByteString.CopyFrom(SHA256.HashData(source)) }, cancellationToken: TestTimeout.Token);
        Assert.Equal(0, started.Offset);
        // An hour until its first byte (Uploads:EmptyExpirySeconds), a day after each.
        Assert.InRange(started.ExpiresAt.ToDateTimeOffset(), DateTimeOffset.UtcNow.AddMinutes(58), DateTimeOffset.UtcNow.AddMinutes(61));

        var first = await GrpcSessions.WriteAsync(client, started.UploadId, source, 0, size / 3, finish: false);
        var second = await GrpcSessions.WriteAsync(client, started.UploadId, source, size / 3, 2 * size / 3, finish: false);
        Assert.Equal(size / 3, first.Offset);
        Assert.InRange(second.ExpiresAt.ToDateTimeOffset(), DateTimeOffset.UtcNow.AddHours(second.Offset == 0 ? 0.9 : 23), DateTimeOffset.UtcNow.AddHours(25));
        Assert.Equal(2 * size / 3, second.Offset);
        Assert.False(second.Complete);
        Assert.DoesNotContain("grpc/three.bin", _server.Storage.VisibleFiles());
        var last = await GrpcSessions.WriteAsync(client, started.UploadId, source, 2 * size / 3, size, finish: true);

        Assert.True(last.Complete);
        Assert.True(last.Created);
        Assert.Equal(size, last.Offset);
        Assert.Equal(SHA256.HashData(source), last.File.Sha256.ToByteArray());
        Assert.Equal(source, File.ReadAllBytes(_server.Storage.PathOf("grpc/three.bin")));
        var status = await client.GetUploadStatusAsync(new GetUploadStatusRequest { UploadId = started.UploadId }, cancellationToken: TestTimeout.Token);
        Assert.True(status.Complete);
        Assert.Equal(last.File.Etag, status.File.Etag);
    }

    [Fact]
    public async Task A_Call_Cut_Short_Keeps_What_Arrived_And_The_Upload_Continues_From_There()
    {
        var source = TestData.RandomBytes(2 * 1024 * 1024);
        var client = GrpcClients.For(_server);
        var started = await client.StartUploadAsync(new StartUploadRequest { FileName = "grpc/cut.bin" }, cancellationToken: TestTimeout.Token);

        using (var cut = new CancellationTokenSource())
        {
            using var call = client.WriteUpload(cancellationToken: cut.Token);
            await call.RequestStream.WriteAsync(new WriteUploadRequest { UploadId = started.UploadId, WriteOffset = 0, Chunk = ByteString.CopyFrom(source, 0, 700_000) });
            await WaitUntilAsync(() => PartBytes() >= 512 * 1024);
            await cut.CancelAsync();
        }

        var status = await WaitForStatusAsync(client, started.UploadId, s => s.Offset > 0);
        Assert.InRange(status.Offset, 512 * 1024, 700_000);
        Assert.Null(status.Length);
        var done = await GrpcSessions.WriteAsync(client, started.UploadId, source, (int)status.Offset, source.Length, finish: true);

        Assert.True(done.Complete);
        Assert.Equal(source.Length, done.Length);
        Assert.Equal(source, File.ReadAllBytes(_server.Storage.PathOf("grpc/cut.bin")));
    }

    [Fact]
    public async Task A_Wrong_Write_Offset_Is_Failed_Precondition_With_The_Expected_Offset()
    {
        var source = TestData.RandomBytes(1000);
        var client = GrpcClients.For(_server);
        var started = await client.StartUploadAsync(new StartUploadRequest { FileName = "grpc/offset.bin", Length = 1000 }, cancellationToken: TestTimeout.Token);
        await GrpcSessions.WriteAsync(client, started.UploadId, source, 0, 400, finish: false);

        var error = await Assert.ThrowsAsync<RpcException>(() => GrpcSessions.WriteAsync(client, started.UploadId, source, 300, 1000, finish: true));

        Assert.Equal(StatusCode.FailedPrecondition, error.StatusCode);
        Assert.Equal("UPLOAD_OFFSET_MISMATCH", GrpcAssert.Reason(error));
        Assert.Equal("400", error.GetRpcStatus()!.GetDetail<ErrorInfo>().Metadata["expected_offset"]);
        GrpcAssert.IsClean(error, _server.Storage.RootPath);
        await GrpcSessions.WriteAsync(client, started.UploadId, source, 400, 1000, finish: true);
        Assert.Equal(source, File.ReadAllBytes(_server.Storage.PathOf("grpc/offset.bin")));
    }

    [Fact]
    public async Task A_Second_Writer_While_One_Appends_Is_Aborted_And_The_First_Loses_Nothing()
    {
        var source = TestData.RandomBytes(1024 * 1024);
        var client = GrpcClients.For(_server);
        var started = await client.StartUploadAsync(new StartUploadRequest { FileName = "grpc/busy.bin", Length = source.Length }, cancellationToken: TestTimeout.Token);
        using var first = client.WriteUpload(cancellationToken: TestTimeout.Token);
        await first.RequestStream.WriteAsync(new WriteUploadRequest { UploadId = started.UploadId, WriteOffset = 0, Chunk = ByteString.CopyFrom(source, 0, 300 * 1024) });
        await WaitUntilAsync(() => PartBytes() > 0); // the first holds the session now

        // The refused writer on a connection of its own: refused while its body is still streaming, the
        // .NET client may send DATA after its own RST_STREAM, which Kestrel answers by closing the whole
        // connection (STREAM_CLOSED), and with it the first writer's call (seen in 3 of 8 runs).
        var second = await Assert.ThrowsAsync<RpcException>(() => GrpcSessions.WriteAsync(GrpcClients.For(_server), started.UploadId, source, 0, source.Length, finish: true));
        using var http = KestrelFactory.ClientFor(_server.AddressOf(Microsoft.AspNetCore.Server.Kestrel.Core.HttpProtocols.Http1), System.Net.HttpVersion.Version11);
        using var patch = await Tus.AppendAsync(http, new Uri(http.BaseAddress!, "/api/uploads/" + started.UploadId), source, 0, source.Length);

        Assert.Equal(StatusCode.Aborted, second.StatusCode);
        Assert.Equal("UPLOAD_BUSY", GrpcAssert.Reason(second));
        Assert.Equal("UPLOAD_BUSY", (await Problems.AssertAsync(patch, System.Net.HttpStatusCode.Conflict)).GetProperty("reason").GetString());

        // The writer ends soon: both are told when to try again (the same delay on both protocols).
        Assert.Equal(TimeSpan.FromSeconds(1), patch.Headers.RetryAfter?.Delta);
        Assert.Equal(TimeSpan.FromSeconds(1), second.GetRpcStatus()!.GetDetail<RetryInfo>()?.RetryDelay.ToTimeSpan());
        await first.RequestStream.WriteAsync(new WriteUploadRequest { Chunk = ByteString.CopyFrom(source, 300 * 1024, source.Length - (300 * 1024)), Finish = true });
        await first.RequestStream.CompleteAsync();
        Assert.True((await first).Complete);
        Assert.Equal(source, File.ReadAllBytes(_server.Storage.PathOf("grpc/busy.bin")));
    }

    [Fact]
    public async Task Cancel_Ends_A_Running_Write_With_Aborted_And_Removes_The_Upload_With_Its_Bytes()
    {
        var logs = new LogCapture();
        using var server = (KestrelFactory)new KestrelFactory().With("Logging:LogLevel:Default", "Information").WithLogs(logs);
        var source = TestData.RandomBytes(600 * 1024);
        var client = GrpcClients.For(server);
        var started = await client.StartUploadAsync(new StartUploadRequest { FileName = "grpc/cancel.bin" }, cancellationToken: TestTimeout.Token);
        using var running = client.WriteUpload(cancellationToken: TestTimeout.Token);
        await running.RequestStream.WriteAsync(new WriteUploadRequest { UploadId = started.UploadId, WriteOffset = 0, Chunk = ByteString.CopyFrom(source, 0, 300 * 1024) });
        await WaitUntilAsync(() => server.Storage.Files().Any(f => f.EndsWith(".part", StringComparison.Ordinal) && new FileInfo(server.Storage.PathOf(f)).Length > 0));

        await client.CancelUploadAsync(new CancelUploadRequest { UploadId = started.UploadId }, cancellationToken: TestTimeout.Token);

        // The writer ends with ABORTED and the reason, not UNKNOWN; its end costs no stack trace in the log.
        var ended = await Assert.ThrowsAsync<RpcException>(async () => await running);
        Assert.Equal(StatusCode.Aborted, ended.StatusCode);
        Assert.Equal("UPLOAD_CANCELLED", GrpcAssert.Reason(ended));
        Assert.DoesNotContain(logs.Entries, e => e.Exception is not null && e.Level >= LogLevel.Information);
        Assert.Single(logs.Entries, e => e.Message.Contains("was cancelled while", StringComparison.Ordinal));
        var status = await Assert.ThrowsAsync<RpcException>(async () => await client.GetUploadStatusAsync(new GetUploadStatusRequest { UploadId = started.UploadId }, cancellationToken: TestTimeout.Token));
        Assert.Equal(StatusCode.NotFound, status.StatusCode);
        Assert.Equal("UPLOAD_NOT_FOUND", GrpcAssert.Reason(status));
        Assert.DoesNotContain(server.Storage.Files(), f => f.StartsWith("grpc/", StringComparison.Ordinal) || f.EndsWith(".part", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Another_Key_Is_Permission_Denied_On_Every_Session_Call()
    {
        var owner = GrpcClients.For(_server);
        var stranger = GrpcClients.For(_server, WriteOnlyKey);
        var started = await owner.StartUploadAsync(new StartUploadRequest { FileName = "grpc/owned.bin", Length = 3 }, cancellationToken: TestTimeout.Token);

        var errors = new[]
        {
            await Assert.ThrowsAsync<RpcException>(async () => await stranger.GetUploadStatusAsync(new GetUploadStatusRequest { UploadId = started.UploadId }, cancellationToken: TestTimeout.Token)),
            await Assert.ThrowsAsync<RpcException>(() => GrpcSessions.WriteAsync(stranger, started.UploadId, [1, 2, 3], 0, 3, finish: true)),
            await Assert.ThrowsAsync<RpcException>(async () => await stranger.CancelUploadAsync(new CancelUploadRequest { UploadId = started.UploadId }, cancellationToken: TestTimeout.Token)),
        };

        Assert.All(errors, error => Assert.Equal(StatusCode.PermissionDenied, error.StatusCode));
        Assert.Equal(0, (await owner.GetUploadStatusAsync(new GetUploadStatusRequest { UploadId = started.UploadId }, cancellationToken: TestTimeout.Token)).Offset);
    }

    [Fact]
    public async Task A_Wrong_Whole_File_SHA256_Stores_Nothing_And_Keeps_The_Previous_Version()
    {
        _server.Storage.Write("grpc/kept.bin", [1, 2, 3]);
        var source = TestData.RandomBytes(5000);
        var client = GrpcClients.For(_server);
        var started = await client.StartUploadAsync(new StartUploadRequest { FileName = "grpc/kept.bin", Overwrite = true, Sha256 = ByteString.CopyFrom(new byte[32]) }, cancellationToken: TestTimeout.Token);

        var error = await Assert.ThrowsAsync<RpcException>(() => GrpcSessions.WriteAsync(client, started.UploadId, source, 0, source.Length, finish: true));

        Assert.Equal("DIGEST_MISMATCH", GrpcAssert.Reason(error));
        Assert.Equal([1, 2, 3], File.ReadAllBytes(_server.Storage.PathOf("grpc/kept.bin")));
        Assert.Equal(["grpc/kept.bin"], _server.Storage.Files().Where(f => f.StartsWith("grpc/", StringComparison.Ordinal)));
    }

    [Theory]
    [InlineData("../escape.bin")]
    [InlineData("")]
    [InlineData(".ft-uploads/x")]
    public async Task A_Name_The_Rules_Refuse_Is_Invalid_Argument(string name)
    {
        var error = await Assert.ThrowsAsync<RpcException>(async () => await GrpcClients.For(_server).StartUploadAsync(new StartUploadRequest { FileName = name }, cancellationToken: TestTimeout.Token));

        Assert.Equal(StatusCode.InvalidArgument, error.StatusCode);
        GrpcAssert.IsClean(error, _server.Storage.RootPath);
    }

    public void Dispose() => _server.Dispose();

    private long PartBytes() =>
        _server.Storage.Files().Where(f => f.EndsWith(".part", StringComparison.Ordinal)).Sum(f => new FileInfo(_server.Storage.PathOf(f)).Length);

    private static async Task WaitUntilAsync(Func<bool> condition)
    {
        var token = TestTimeout.Token;
        while (!condition())
        {
            await Task.Delay(20, token);
        }
    }

    // The server keeps a cut call's bytes when it notices the cut, a moment after the client leaves.
    private static async Task<UploadStatus> WaitForStatusAsync(FileService.FileServiceClient client, string uploadId, Func<UploadStatus, bool> condition)
    {
        var token = TestTimeout.Token;
        while (true)
        {
            var status = await client.GetUploadStatusAsync(new GetUploadStatusRequest { UploadId = uploadId }, cancellationToken: token);
            if (condition(status))
            {
                return status;
            }

            await Task.Delay(20, token);
        }
    }
}
