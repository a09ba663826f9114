using System.Net;
using System.Text;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Rest;

/// <summary>A form's files are committed together: one failed precondition stores none of them.</summary>
public sealed class MultipartCommitTests : IDisposable
{
    private const string Boundary = "commit-boundary";
    private readonly KestrelFactory _server = new();

    [Fact]
    public async Task A_File_Created_While_The_Form_Arrives_Fails_If_None_Match_For_Every_Part()
    {
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        var first = TestData.RandomBytes(100_000);
        var body = new HeldFormContent(("first.bin", first), ("second.bin", TestData.RandomBytes(100_000)));
        using var request = new HttpRequestMessage(HttpMethod.Post, "/api/files?folder=batch") { Content = body };
        request.Headers.IfNoneMatch.ParseAdd("*");

        // Both names are free when the parts arrive; the second is taken before the form ends.
        var upload = client.SendAsync(request, TestTimeout.Token);
        await body.Held.WaitAsync(TestTimeout.Token);
        await AtomicCommitTests.WaitUntilAsync(() => _server.Storage.TempFiles().Count == 2);
        var other = TestData.RandomBytes(10);
        using (var put = await client.PutAsync("/api/files/batch/second.bin", new ByteArrayContent(other), TestTimeout.Token))
        {
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        }

        body.Release();
        using var response = await upload;

        await Problems.AssertAsync(response, HttpStatusCode.PreconditionFailed);
        Assert.Equal(["batch/second.bin"], _server.Storage.VisibleFiles());
        Assert.Equal(other, await File.ReadAllBytesAsync(_server.Storage.PathOf("batch/second.bin"), TestTimeout.Token));
        Assert.Empty(_server.Storage.TempFiles());
    }

    [Fact]
    public async Task A_Form_That_Names_One_File_Twice_Is_400_And_Stores_Nothing()
    {
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        using var form = new MultipartFormDataContent
        {
            { new ByteArrayContent(TestData.RandomBytes(1000)), "file", "same.bin" },
            { new ByteArrayContent(TestData.RandomBytes(1000)), "file", "other.bin" },
            { new ByteArrayContent(TestData.RandomBytes(1000)), "file", "same.bin" },
        };

        using var response = await client.PostAsync("/api/files?folder=twice", form, TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, HttpStatusCode.BadRequest);
        Assert.Contains("twice/same.bin", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.Empty(_server.Storage.Files());
    }

    public void Dispose() => _server.Dispose();

    /// <summary>A multipart body whose closing delimiter waits until <see cref="Release"/>: every part has arrived, the form has not ended.</summary>
    private sealed class HeldFormContent : HttpContent
    {
        private readonly (string Name, byte[] Bytes)[] _files;
        private readonly TaskCompletionSource _held = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly TaskCompletionSource _released = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public HeldFormContent(params (string Name, byte[] Bytes)[] files)
        {
            _files = files;
            Headers.TryAddWithoutValidation("Content-Type", $"multipart/form-data; boundary={Boundary}");
        }

        public Task Held => _held.Task;

        public void Release() => _released.TrySetResult();

        protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
            SerializeToStreamAsync(stream, context, CancellationToken.None);

        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
        {
            foreach (var (name, bytes) in _files)
            {
                await stream.WriteAsync(Encoding.ASCII.GetBytes($"--{Boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"), cancellationToken);
                await stream.WriteAsync(bytes, cancellationToken);
                await stream.WriteAsync("\r\n"u8.ToArray(), cancellationToken);
            }

            // The delimiter ends the last part; only the final "--" is held back.
            await stream.WriteAsync(Encoding.ASCII.GetBytes($"--{Boundary}"), cancellationToken);
            await stream.FlushAsync(cancellationToken);
            _held.TrySetResult();
            await _released.Task.WaitAsync(cancellationToken);
            await stream.WriteAsync("--\r\n"u8.ToArray(), cancellationToken);
        }

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }
}
