using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Interop;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Rest;

/// <summary>
/// A raw upload (PUT/POST api/files/{name}) stores its body as bytes whatever Content-Type says:
/// curl --data-binary sends application/x-www-form-urlencoded by default, and a form-typed body
/// must never be read as a form before the action streams it.
/// </summary>
public sealed class RawUploadContentTypeTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _local = new();

    public static TheoryData<string, string?> MethodsAndTypes => new()
    {
        { "PUT", null },
        { "POST", null },
        { "PUT", "text/plain" },
        { "POST", "text/plain" },
        { "PUT", "application/x-www-form-urlencoded" },
        { "POST", "application/x-www-form-urlencoded" },
        { "PUT", "multipart/form-data; boundary=not-a-form" },
        { "POST", "multipart/form-data; boundary=not-a-form" },
    };

    [Theory]
    [MemberData(nameof(MethodsAndTypes))]
    public async Task Raw_Upload_Stores_The_Body_As_Bytes_Whatever_Its_Content_Type(string method, string? contentType)
    {
        // Random bytes hold '&', '=' and '%': read as a form they would be swallowed or refused.
        var source = TestData.RandomBytes(300_000);
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        var content = new StreamContent(new MemoryStream(source));
        if (contentType is not null)
        {
            content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        }

        using var request = new HttpRequestMessage(new HttpMethod(method), "/api/files/typed/body.bin") { Content = content };
        using var response = await client.SendAsync(request, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var stored = await response.Content.ReadFromJsonAsync<JsonElement>(TestTimeout.Token);
        Assert.Equal(source.Length, stored.GetProperty("size").GetInt64());
        Assert.Equal(Convert.ToHexStringLower(SHA256.HashData(source)), stored.GetProperty("sha256").GetString());
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await File.ReadAllBytesAsync(_server.Storage.PathOf("typed/body.bin"), TestTimeout.Token)));
    }

    [Theory]
    [InlineData("1.1", "application/x-www-form-urlencoded")]
    [InlineData("2.0", "application/x-www-form-urlencoded")]
    [InlineData("1.1", "multipart/form-data; boundary=b")]
    [InlineData("2.0", "multipart/form-data; boundary=b")]
    public async Task Form_Typed_Body_Without_Content_Length_Replaces_A_File_With_Its_Bytes_Not_An_Empty_File(string version, string contentType)
    {
        _server.Storage.WriteRandom("keep/f.bin", 5000);
        var replacement = FormLookalike(50_000);
        var protocols = version == "2.0" ? HttpProtocols.Http2 : HttpProtocols.Http1;
        using var client = KestrelFactory.ClientFor(_server.AddressOf(protocols), Version.Parse(version));
        var content = new StreamContent(new UnknownLengthStream(replacement));
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);

        using var response = await client.PutAsync("/api/files/keep/f.bin", content, TestTimeout.Token);

        // No Content-Length: HTTP/1.1 sent it chunked, HTTP/2 as DATA frames up to END_STREAM.
        Assert.Null(response.RequestMessage!.Content!.Headers.ContentLength);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var stored = await response.Content.ReadFromJsonAsync<JsonElement>(TestTimeout.Token);
        Assert.Equal(replacement.Length, stored.GetProperty("size").GetInt64());
        Assert.Equal(TempStorage.Sha256(replacement), TempStorage.Sha256(await File.ReadAllBytesAsync(_server.Storage.PathOf("keep/f.bin"), TestTimeout.Token)));
    }

    [Theory]
    [InlineData("--http1.1")]
    [InlineData("--http2-prior-knowledge")]
    public async Task Curl_Data_Binary_With_Its_Default_Form_Content_Type_Stores_The_File(string protocol)
    {
        // The README's command as written: curl -H "$AUTH" --data-binary @big.bin URL.
        var source = _local.WriteRandom("big.bin", 2_000_003);
        var endpoint = protocol == "--http1.1" ? HttpProtocols.Http1 : HttpProtocols.Http2;
        var url = new Uri(_server.AddressOf(endpoint), "/api/files/videos/big.bin");

        var (exitCode, output) = await CurlDownloadTests.RunCurlAsync("-sS", "-H", ExternalTool.AuthorizationHeader, protocol, "--data-binary", "@" + _local.PathOf("big.bin"), "-w", "\n%{http_code}", url.ToString());

        Assert.True(exitCode == 0, output);
        Assert.EndsWith("\n201", output, StringComparison.Ordinal);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await File.ReadAllBytesAsync(_server.Storage.PathOf("videos/big.bin"), TestTimeout.Token)));
    }

    [Fact]
    public async Task Curl_Data_Binary_Sends_A_Form_Content_Type_So_The_Test_Above_Means_Something()
    {
        _local.WriteRandom("small.bin", 10);
        var url = new Uri(_server.AddressOf(HttpProtocols.Http1), "/api/files/videos/small.bin");

        var (exitCode, output) = await CurlDownloadTests.RunCurlAsync("-sS", "-v", "-o", "/dev/null", "-H", ExternalTool.AuthorizationHeader, "--data-binary", "@" + _local.PathOf("small.bin"), url.ToString());

        Assert.True(exitCode == 0, output);
        Assert.Contains("> Content-Type: application/x-www-form-urlencoded", output, StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>Bytes that parse as a valid urlencoded form, the case where the loss was silent.</summary>
    private static byte[] FormLookalike(int size)
    {
        var bytes = new byte[size];
        for (var i = 0; i < size; i++)
        {
            bytes[i] = (byte)(i % 97 == 96 ? '&' : i % 97 == 48 ? '=' : 'a' + (i % 26));
        }

        return bytes;
    }

    public void Dispose()
    {
        _server.Dispose();
        _local.Dispose();
    }

    /// <summary>A readable stream that cannot say its length, so HttpClient sends no Content-Length.</summary>
    private sealed class UnknownLengthStream(byte[] bytes) : Stream
    {
        private readonly MemoryStream _inner = new(bytes);

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position
        {
            get => throw new NotSupportedException();
            set => throw new NotSupportedException();
        }

        public override int Read(byte[] buffer, int offset, int count) => _inner.Read(buffer, offset, count);

        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            _inner.ReadAsync(buffer, cancellationToken);

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                _inner.Dispose();
            }

            base.Dispose(disposing);
        }
    }
}
