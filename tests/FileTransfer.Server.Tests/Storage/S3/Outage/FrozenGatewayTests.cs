using System.Diagnostics;
using System.Net;
using System.Security.Cryptography;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Storage.S3.Outage;

/// <summary>
/// A gateway that stops answering without resetting anything (a paused radosgw, a partition): the
/// health checks say so within their own deadline (<c>/healthz</c> and <c>/healthz/ready</c> 503,
/// <c>/healthz/live</c> 200), new requests are refused with 503 STORAGE_UNAVAILABLE within
/// <c>Storage:S3:TimeoutSeconds</c> instead of hanging, and downloads in progress end (REST: a cut;
/// gRPC: UNAVAILABLE) with nothing but the right bytes before the end. A gateway that dies mid-download
/// does the same. Everything works again once it is back.
/// </summary>
public sealed class FrozenGatewayTests(OutageServer fixture) : IClassFixture<OutageServer>
{
    private const int Size = 24 * 1024 * 1024;

    // A refusal must come within the store's deadline (2 s here) and some slack for a loaded machine, not after 100 s.
    private static readonly TimeSpan Prompt = TimeSpan.FromSeconds(12);

    [Fact]
    public async Task Health_Says_Unready_And_New_Requests_Are_Refused_Within_The_Deadline_While_The_Gateway_Is_Frozen()
    {
        using var client = KestrelFactory.ClientFor(fixture.Http1, HttpVersion.Version11);
        await PutAsync(client, "frozen/small.txt", TestData.RandomBytes(100));
        var grpc = GrpcClients.For(fixture.Server);

        fixture.Gateway.Freeze();
        try
        {
            foreach (var (path, status) in new[] { ("/healthz", HttpStatusCode.ServiceUnavailable), ("/healthz/ready", HttpStatusCode.ServiceUnavailable), ("/healthz/live", HttpStatusCode.OK) })
            {
                var watch = Stopwatch.StartNew();
                using var health = await client.GetAsync(path, TestTimeout.Token);
                Assert.True(health.StatusCode == status, $"{path}: {health.StatusCode}");
                Assert.True(watch.Elapsed < Prompt, $"{path} took {watch.Elapsed}");
            }

            foreach (var request in new Func<HttpRequestMessage>[]
            {
                () => new(HttpMethod.Get, "/api/files/frozen/small.txt"),
                () => new(HttpMethod.Get, "/api/files?prefix=frozen/"),
                () => new(HttpMethod.Put, "/api/files/frozen/new.txt") { Content = new ByteArrayContent([1, 2, 3]) },
            })
            {
                var watch = Stopwatch.StartNew();
                using var sent = request();
                using var response = await client.SendAsync(sent, TestTimeout.Token);
                var problem = await Problems.AssertAsync(response, HttpStatusCode.ServiceUnavailable);
                Assert.Equal("STORAGE_UNAVAILABLE", problem.GetProperty("reason").GetString());
                Assert.NotNull(response.Headers.RetryAfter);
                Assert.True(watch.Elapsed < Prompt, $"{sent.Method} {sent.RequestUri} took {watch.Elapsed}");
            }

            var started = Stopwatch.StartNew();
            var error = await Assert.ThrowsAsync<RpcException>(async () => await grpc.GetFileInfoAsync(new GetFileInfoRequest { FileName = "frozen/small.txt" }, cancellationToken: TestTimeout.Token));
            Assert.Equal(StatusCode.Unavailable, error.StatusCode);
            Assert.Equal("STORAGE_UNAVAILABLE", GrpcAssert.Reason(error));
            Assert.True(started.Elapsed < Prompt, $"GetFileInfo took {started.Elapsed}");
        }
        finally
        {
            fixture.Gateway.Resume();
        }

        using var ready = await client.GetAsync("/healthz/ready", TestTimeout.Token);
        Assert.Equal(HttpStatusCode.OK, ready.StatusCode);
        using var get = await client.GetAsync("/api/files/frozen/small.txt", TestTimeout.Token);
        Assert.Equal(HttpStatusCode.OK, get.StatusCode);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_Rest_Download_In_Progress_Ends_With_A_Cut_And_Only_Right_Bytes_Before_It(bool killed)
    {
        var name = $"frozen/rest-{killed}.bin";
        using var client = KestrelFactory.ClientFor(fixture.Http1, HttpVersion.Version11);
        var source = TestData.RandomBytes(Size);
        await PutAsync(client, name, source);

        using var response = await client.GetAsync("/api/files/" + name, HttpCompletionOption.ResponseHeadersRead, TestTimeout.Token);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        await using var body = await response.Content.ReadAsStreamAsync(TestTimeout.Token);
        var received = new MemoryStream();
        var buffer = new byte[64 * 1024];
        received.Write(buffer, 0, await body.ReadAtLeastAsync(buffer, buffer.Length, throwOnEndOfStream: true, TestTimeout.Token));
        Stop(killed);
        try
        {
            var watch = Stopwatch.StartNew();
            await Assert.ThrowsAnyAsync<IOException>(async () =>
            {
                int read;
                while ((read = await body.ReadAsync(buffer, TestTimeout.Token)) > 0)
                {
                    received.Write(buffer, 0, read);
                }
            });
            Assert.True(watch.Elapsed < Prompt, $"the cut took {watch.Elapsed}");
        }
        finally
        {
            fixture.Gateway.Resume();
        }

        Assert.InRange(received.Length, buffer.Length, Size - 1);
        Assert.Equal(SHA256.HashData(source.AsSpan(0, (int)received.Length)), SHA256.HashData(received.ToArray()));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_Grpc_Download_In_Progress_Ends_Unavailable_With_Only_Right_Bytes_Before_It(bool killed)
    {
        var name = $"frozen/grpc-{killed}.bin";
        using var client = KestrelFactory.ClientFor(fixture.Http1, HttpVersion.Version11);
        var source = TestData.RandomBytes(Size);
        await PutAsync(client, name, source);
        var grpc = GrpcClients.For(fixture.Server);

        using var call = grpc.DownloadFile(new DownloadFileRequest { FileName = name }, cancellationToken: TestTimeout.Token);
        var received = new MemoryStream();
        Assert.True(await call.ResponseStream.MoveNext(TestTimeout.Token));
        Assert.Equal(DownloadFileResponse.DataOneofCase.Metadata, call.ResponseStream.Current.DataCase);
        Assert.True(await call.ResponseStream.MoveNext(TestTimeout.Token));
        call.ResponseStream.Current.Chunk.WriteTo(received);
        Stop(killed);
        try
        {
            var watch = Stopwatch.StartNew();
            var error = await Assert.ThrowsAsync<RpcException>(async () =>
            {
                while (await call.ResponseStream.MoveNext(TestTimeout.Token))
                {
                    call.ResponseStream.Current.Chunk.WriteTo(received);
                }
            });
            Assert.Equal(StatusCode.Unavailable, error.StatusCode);
            Assert.Equal("STORAGE_UNAVAILABLE", GrpcAssert.Reason(error));
            Assert.True(watch.Elapsed < Prompt, $"the end took {watch.Elapsed}");
        }
        finally
        {
            fixture.Gateway.Resume();
        }

        Assert.InRange(received.Length, 1, Size - 1);
        Assert.Equal(SHA256.HashData(source.AsSpan(0, (int)received.Length)), SHA256.HashData(received.ToArray()));
    }

    private void Stop(bool killed)
    {
        if (killed)
        {
            fixture.Gateway.Kill();
        }
        else
        {
            fixture.Gateway.Freeze();
        }
    }

    private static async Task PutAsync(HttpClient client, string name, byte[] bytes)
    {
        using var put = await client.PutAsync("/api/files/" + name, new ByteArrayContent(bytes), TestTimeout.Token);
        Assert.True(put.IsSuccessStatusCode, put.StatusCode.ToString());
    }
}
