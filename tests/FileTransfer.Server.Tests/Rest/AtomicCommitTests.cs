using System.Net;
using System.Security.Cryptography;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Rest;

/// <summary>Atomic commit on real Kestrel: aborted, racing and concurrent uploads.</summary>
public sealed class AtomicCommitTests : IDisposable
{
    private readonly KestrelFactory _server = new();

    [Theory]
    [InlineData("1.1")]
    [InlineData("2.0")]
    public async Task Aborted_Upload_Leaves_No_Partial_File_And_The_Previous_Version_Intact(string version)
    {
        var previous = _server.Storage.WriteRandom("abort/f.bin", 1000);
        var protocols = version == "2.0" ? HttpProtocols.Http2 : HttpProtocols.Http1;
        using var client = KestrelFactory.ClientFor(_server.AddressOf(protocols), Version.Parse(version));
        var body = new StallingContent(bytesBeforeStall: 3_000_000, declaredLength: 10_000_000);
        using var cancel = new CancellationTokenSource();

        var upload = client.PutAsync("/api/files/abort/f.bin", body, cancel.Token);
        await body.Stalled.WaitAsync(TestTimeout.Token);
        await WaitUntilAsync(() => TempFiles().Any());
        await cancel.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => upload);

        await WaitUntilAsync(() => !TempFiles().Any());
        Assert.Equal(previous, await File.ReadAllBytesAsync(_server.Storage.PathOf("abort/f.bin"), TestTimeout.Token));
        Assert.Equal(["abort/f.bin"], Visible());
    }

    [Fact]
    public async Task Racing_Uploads_To_One_Name_End_With_One_Complete_File()
    {
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http2), HttpVersion.Version20);
        var sources = Enumerable.Range(0, 8).Select(_ => TestData.RandomBytes(2_000_000)).ToArray();

        var responses = await Task.WhenAll(sources.Select(s => client.PutAsync("/api/files/race/f.bin", new ByteArrayContent(s), TestTimeout.Token)));

        Assert.All(responses, r => Assert.True(r.IsSuccessStatusCode));
        var final = Convert.ToHexString(SHA256.HashData(await File.ReadAllBytesAsync(_server.Storage.PathOf("race/f.bin"), TestTimeout.Token)));
        Assert.Contains(final, sources.Select(s => Convert.ToHexString(SHA256.HashData(s))));
        Assert.Equal(["race/f.bin"], Visible());
        Assert.Empty(TempFiles());
    }

    [Fact]
    // Larger than loopback socket buffers, so most of the old version is still unread when the new one lands.
    public async Task Download_Started_On_The_Old_Version_Finishes_With_The_Old_Bytes()
    {
        var old = _server.Storage.WriteRandom("swap/f.bin", 48_000_000);
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        using var download = await client.GetAsync("/api/files/swap/f.bin", HttpCompletionOption.ResponseHeadersRead, TestTimeout.Token);
        await using var body = await download.Content.ReadAsStreamAsync(TestTimeout.Token);
        var received = new byte[old.Length];
        await body.ReadExactlyAsync(received.AsMemory(0, 65_536), TestTimeout.Token);

        using var writer = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        using var replaced = await writer.PutAsync("/api/files/swap/f.bin", new ByteArrayContent(TestData.RandomBytes(old.Length)), TestTimeout.Token);
        await body.ReadExactlyAsync(received.AsMemory(65_536), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, replaced.StatusCode);
        Assert.Equal(Convert.ToHexString(SHA256.HashData(old)), Convert.ToHexString(SHA256.HashData(received)));
    }

    private IReadOnlyList<string> TempFiles() => _server.Storage.TempFiles();

    private IReadOnlyList<string> Visible() => _server.Storage.VisibleFiles();

    internal static async Task WaitUntilAsync(Func<bool> condition)
    {
        for (var i = 0; i < 200 && !condition(); i++)
        {
            await Task.Delay(50, TestTimeout.Token);
        }

        Assert.True(condition(), "The condition did not hold within 10 s.");
    }

    public void Dispose() => _server.Dispose();

    /// <summary>A body that sends some bytes, then stalls until the request is cancelled.</summary>
    internal sealed class StallingContent(int bytesBeforeStall, long declaredLength) : HttpContent
    {
        private readonly TaskCompletionSource _stalled = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task Stalled => _stalled.Task;

        protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
            SerializeToStreamAsync(stream, context, CancellationToken.None);

        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
        {
            await stream.WriteAsync(TestData.RandomBytes(bytesBeforeStall), cancellationToken);
            await stream.FlushAsync(cancellationToken);
            _stalled.TrySetResult();
            await Task.Delay(Timeout.Infinite, cancellationToken);
        }

        protected override bool TryComputeLength(out long length)
        {
            length = declaredLength;
            return true;
        }
    }
}
