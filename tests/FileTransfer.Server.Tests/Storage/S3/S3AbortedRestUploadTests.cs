using System.Net;
using System.Security.Cryptography;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Storage.S3;

/// <summary>
/// A REST upload whose client goes away after a part reached the store, on real Kestrel (the test
/// server cannot cut a connection): the multipart upload is aborted, nothing becomes visible, and the
/// name keeps its previous version.
/// </summary>
public sealed class S3AbortedRestUploadTests(S3KestrelServer fixture) : IClassFixture<S3KestrelServer>
{
    private const int ChunkSize = 64 * 1024;

    // Past the smallest part (8 MiB here): the server has sent a part before the client leaves.
    private const int SentBeforeLeaving = (9 * 1024 * 1024) + ChunkSize;

    [Fact]
    public async Task A_Put_Cut_After_A_Part_Went_To_The_Store_Leaves_The_Previous_Version_And_No_Multipart_Upload()
    {
        using var client = KestrelFactory.ClientFor(fixture.Server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        var previous = TestData.RandomBytes(1000);
        using (var put = await client.PutAsync("/api/files/aborted/rest.bin", new ByteArrayContent(previous), TestTimeout.Token))
        {
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        }

        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(TestTimeout.Token);
        var body = new HangingContent(SentBeforeLeaving);
        var upload = client.PutAsync("/api/files/aborted/rest.bin", body, cancel.Token);
        await body.Sent.WaitAsync(TestTimeout.Token);
        await WaitForAsync(async () => await S3Buckets.UploadsInProgressAsync(fixture.Client, fixture.Bucket) > 0);
        await cancel.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => upload);

        await WaitForAsync(async () => await S3Buckets.UploadsInProgressAsync(fixture.Client, fixture.Bucket) == 0);
        var now = await client.GetByteArrayAsync("/api/files/aborted/rest.bin", TestTimeout.Token);
        Assert.Equal(SHA256.HashData(previous), SHA256.HashData(now));
    }

    private static async Task WaitForAsync(Func<Task<bool>> condition)
    {
        var deadline = DateTime.UtcNow.AddSeconds(20);
        while (!await condition())
        {
            Assert.True(DateTime.UtcNow < deadline, "the condition did not hold within 20 s");
            await Task.Delay(100, TestTimeout.Token);
        }
    }

    /// <summary>A body of unknown length that sends <paramref name="bytes"/> bytes, then waits until the request is cancelled.</summary>
    private sealed class HangingContent(int bytes) : HttpContent
    {
        private readonly TaskCompletionSource _sent = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task Sent => _sent.Task;

        protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
            SerializeToStreamAsync(stream, context, CancellationToken.None);

        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
        {
            var chunk = TestData.RandomBytes(ChunkSize);
            for (var sent = 0; sent < bytes; sent += chunk.Length)
            {
                await stream.WriteAsync(chunk, cancellationToken);
            }

            await stream.FlushAsync(cancellationToken);
            _sent.TrySetResult();
            await Task.Delay(Timeout.Infinite, cancellationToken);
        }

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }
}
