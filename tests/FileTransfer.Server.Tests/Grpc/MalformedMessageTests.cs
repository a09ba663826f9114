using System.Net;
using System.Net.Http.Headers;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Diagnostics;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>
/// Raw gRPC frames whose message protobuf cannot parse, sent over real Kestrel HTTP/2 to every
/// FileService method: the client's error (INVALID_ARGUMENT) with a short message, and at most one
/// short log line without a stack trace, not UNKNOWN with an error and a stack trace per request.
/// </summary>
public sealed class MalformedMessageTests : IDisposable
{
    /// <summary>Field 1 (a string) announcing 5 bytes, of which one arrives: "truncated message".</summary>
    private static readonly byte[] Truncated = [0x0A, 0x05, 0x61];

    private const string HostingDiagnostics = "Microsoft.AspNetCore.Hosting.Diagnostics";

    private readonly LogCapture _logs = new();
    private readonly KestrelFactory _server = new();

    // Hosting's "Request finished" (event 2) too: it is logged once the call's pipeline has ended.
    public MalformedMessageTests() =>
        _server.With("Logging:LogLevel:Default", "Debug").With("Logging:LogLevel:" + HostingDiagnostics, "Information").WithLogs(_logs);

    [Theory]
    [InlineData("GetFileInfo")]
    [InlineData("ListFiles")]
    [InlineData("DeleteFile")]
    [InlineData("DownloadFile")]
    [InlineData("UploadFile")]
    public async Task A_Message_Protobuf_Cannot_Parse_Is_Invalid_Argument_With_One_Short_Log_Line(string method)
    {
        var startup = StartedLogCount();
        var (status, message) = await CallAsync(method, Frame(Truncated));

        Assert.Equal(StatusCode.InvalidArgument, status);
        Assert.InRange(message.Length, 1, 200);
        await AssertBoundedLogAsync(startup);
    }

    [Fact]
    public async Task An_Upload_Whose_Second_Message_Does_Not_Parse_Is_Invalid_Argument_And_Stores_Nothing()
    {
        var metadata = new UploadFileRequest { Metadata = new FileMetadata { FileName = "bad/after-metadata.bin" } };
        var startup = StartedLogCount();

        var (status, _) = await CallAsync("UploadFile", [.. Frame(metadata.ToByteArray()), .. Frame([0xFF, 0xFF, 0xFF])]);

        Assert.Equal(StatusCode.InvalidArgument, status);
        Assert.False(File.Exists(Path.Combine(_server.Storage.RootPath, "bad", "after-metadata.bin")));
        await AssertBoundedLogAsync(startup);
    }

    /// <summary>Starts the server; how many lines it logged doing so.</summary>
    private int StartedLogCount()
    {
        _server.AddressOf(HttpProtocols.Http2);
        return _logs.Entries.Count;
    }

    /// <summary>What the call logged: no warning or error, no exception, at most one line at Information or above, each short.</summary>
    private async Task AssertBoundedLogAsync(int startup)
    {
        // The server logs after the response has gone out: wait until the request has ended, which
        // Hosting logs after every line of the call's pipeline.
        await Eventually.UntilAsync(() => _logs.Entries.Skip(startup).Any(e => e.Category == HostingDiagnostics && e.EventId.Id == 2), "the request's end logged");
        var lines = _logs.Entries.Skip(startup).Where(e => e.Category.StartsWith("Grpc", StringComparison.Ordinal) || e.Category.StartsWith("FileTransfer", StringComparison.Ordinal)).ToList();
        Assert.DoesNotContain(lines, e => e.Level >= LogLevel.Warning);
        Assert.DoesNotContain(lines, e => e.Exception is not null);
        // Besides the line every transfer logs (event 100: an upload refused mid-stream is a rejected transfer).
        Assert.InRange(lines.Count(e => e.Level >= LogLevel.Information && e.EventId.Id != 100), 0, 1);
        Assert.All(lines, e => Assert.InRange(e.Message.Length, 0, 300));
    }

    /// <summary>One call of <paramref name="method"/> whose request body is exactly <paramref name="body"/>; its gRPC status and message.</summary>
    private async Task<(StatusCode Status, string Message)> CallAsync(string method, byte[] body)
    {
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http2), HttpVersion.Version20);
        using var request = new HttpRequestMessage(HttpMethod.Post, $"/{FileService.Descriptor.FullName}/{method}")
        {
            Content = new ByteArrayContent(body),
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/grpc");
        request.Headers.TE.Add(new TransferCodingWithQualityHeaderValue("trailers"));

        using var response = await client.SendAsync(request, TestTimeout.Token);
        var answer = await response.Content.ReadAsStringAsync(TestTimeout.Token);

        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{response.StatusCode}: {answer}");
        var headers = response.TrailingHeaders.Contains("grpc-status") ? response.TrailingHeaders : response.Headers;
        var status = (StatusCode)int.Parse(headers.GetValues("grpc-status").Single(), System.Globalization.CultureInfo.InvariantCulture);
        var message = headers.TryGetValues("grpc-message", out var values) ? Uri.UnescapeDataString(values.Single()) : string.Empty;
        return (status, message);
    }

    /// <summary>A gRPC length-prefixed message: not compressed, a 4-byte big-endian length, the bytes.</summary>
    private static byte[] Frame(byte[] message) =>
        [0, (byte)(message.Length >> 24), (byte)(message.Length >> 16), (byte)(message.Length >> 8), (byte)message.Length, .. message];

    public void Dispose() => _server.Dispose();
}
