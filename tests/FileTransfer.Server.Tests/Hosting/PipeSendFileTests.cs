using System.Net;
using System.Net.Http.Headers;
using FileTransfer.Server.Rest;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>
/// The send-file copy that reads files straight into Kestrel's response pipe, on real Kestrel over
/// both protocols, at the edges of its read size (set to 4 KiB here so that the edges are cheap).
/// </summary>
public sealed class PipeSendFileTests : IDisposable
{
    private const int Chunk = 4096;
    private readonly KestrelFactory _server = new();

    public PipeSendFileTests() => _server
        .With("Transfer:SendFileChunkBytes", Chunk.ToString(System.Globalization.CultureInfo.InvariantCulture))
        .With("Transfer:Http2SendFileChunkBytes", Chunk.ToString(System.Globalization.CultureInfo.InvariantCulture));

    [Theory]
    [InlineData("HTTP/1.1", 256 * 1024)]
    [InlineData("HTTP/1.0", 256 * 1024)]
    [InlineData("HTTP/2", 1024 * 1024)]
    public void Http2_Responses_Flush_In_Larger_Chunks_By_Default(string protocol, int expected)
    {
        Assert.Equal(expected, OpenedFileSender.ChunkBytesFor(protocol, new TransferTuningOptions()));
    }

    [Fact]
    public void Each_Protocol_Follows_Its_Own_Configured_Chunk()
    {
        using var factory = new FileTransferFactory()
            .With("Transfer:SendFileChunkBytes", "65536")
            .With("Transfer:Http2SendFileChunkBytes", "2097152");

        var options = factory.Services.GetRequiredService<IOptions<TransferTuningOptions>>().Value;

        Assert.Equal(65536, OpenedFileSender.ChunkBytesFor("HTTP/1.1", options));
        Assert.Equal(2097152, OpenedFileSender.ChunkBytesFor("HTTP/2", options));
    }

    public static TheoryData<int, bool> Sizes() => new()
    {
        { 0, false }, { 1, false }, { Chunk - 1, false }, { Chunk, false }, { Chunk + 1, false }, { (50 * Chunk) + 123, false },
        { 0, true }, { 1, true }, { Chunk - 1, true }, { Chunk, true }, { Chunk + 1, true }, { (50 * Chunk) + 123, true },
    };

    [Theory]
    [MemberData(nameof(Sizes))]
    public async Task Sends_Every_Byte_At_Chunk_Edges(int size, bool http2)
    {
        var source = _server.Storage.WriteRandom("edge.bin", size);
        using var client = ClientFor(http2);

        using var response = await client.GetAsync("/api/files/edge.bin", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(size, response.Content.Headers.ContentLength);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await response.Content.ReadAsByteArrayAsync(TestTimeout.Token)));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Sends_A_Range_That_Spans_Several_Chunks(bool http2)
    {
        var source = _server.Storage.WriteRandom("range.bin", 10 * Chunk);
        using var client = ClientFor(http2);
        using var request = new HttpRequestMessage(HttpMethod.Get, "/api/files/range.bin")
        {
            Version = client.DefaultRequestVersion,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        request.Headers.Range = new RangeHeaderValue(Chunk - 7, (3 * Chunk) + 5);

        using var response = await client.SendAsync(request, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.PartialContent, response.StatusCode);
        Assert.Equal(source[(Chunk - 7)..((3 * Chunk) + 6)], await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
    }

    [Fact]
    public async Task Kestrel_Fallback_Copy_Sends_The_Same_Bytes_When_Switched_Off()
    {
        _server.With("Transfer:UsePipeSendFile", "false");
        var source = _server.Storage.WriteRandom("fallback.bin", (5 * Chunk) + 1);
        using var client = ClientFor(http2: false);

        var received = await client.GetByteArrayAsync("/api/files/fallback.bin", TestTimeout.Token);

        Assert.Equal(source, received);
    }

    private HttpClient ClientFor(bool http2) => http2
        ? KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http2), HttpVersion.Version20)
        : KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);

    public void Dispose() => _server.Dispose();
}
