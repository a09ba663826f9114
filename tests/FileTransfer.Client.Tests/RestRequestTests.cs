using System.Net;
using System.Security.Cryptography;
using System.Text;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Client.Tests;

/// <summary>What the REST transport puts on the wire, seen by a recording handler: names, signed links, the key, HTTP versions, digests.</summary>
public sealed class RestRequestTests
{
    [Fact]
    public async Task Names_Are_Escaped_Per_Segment_Under_Api_Files_And_Keep_The_Path_Base()
    {
        var handler = new RecordingHandler();
        using var client = Create(handler, "http://files.test:5000/base");

        await client.GetInfoAsync("a b/ü#?.bin", TestTimeout.Token);

        Assert.Equal("http://files.test:5000/base/api/files/a%20b/%C3%BC%23%3F.bin", handler.Requests[0].RequestUri!.AbsoluteUri);
        Assert.Equal(HttpMethod.Head, handler.Requests[0].Method);
        Assert.Equal("ü#?.bin", FileTransferClient.GetFileName("a b/ü#?.bin"));
    }

    [Fact]
    public async Task Api_Key_Is_Sent_As_Bearer_With_Names()
    {
        var handler = new RecordingHandler();
        using var client = Create(handler, "http://files.test/");

        await client.GetInfoAsync("x.bin", TestTimeout.Token);

        Assert.Equal("Bearer key-1", handler.Requests[0].Headers.Authorization?.ToString());
    }

    [Fact]
    public async Task Signed_Link_Is_Used_As_Is_Without_The_Api_Key()
    {
        var handler = new RecordingHandler();
        using var client = Create(handler, "http://files.test/");
        const string Link = "https://cdn.test/api/files/d/r%20x.pdf?exp=9&sig=Zm9v";

        var info = await client.GetInfoAsync(Link, TestTimeout.Token);

        Assert.Equal(Link, handler.Requests[0].RequestUri!.AbsoluteUri);
        Assert.Null(handler.Requests[0].Headers.Authorization);
        Assert.Equal("d/r x.pdf", info.Name);
        Assert.Equal("r x.pdf", FileTransferClient.GetFileName(Link));
    }

    [Theory]
    [InlineData("http://h/", null, "1.1", HttpVersionPolicy.RequestVersionExact)]
    [InlineData("http://h/", "2.0", "2.0", HttpVersionPolicy.RequestVersionExact)]
    [InlineData("https://h/", null, "2.0", HttpVersionPolicy.RequestVersionOrLower)]
    [InlineData("https://h/", "1.1", "1.1", HttpVersionPolicy.RequestVersionExact)]
    public async Task Http_Version_Is_Prior_Knowledge_On_Http_And_Alpn_On_Https(string url, string? requested, string version, HttpVersionPolicy policy)
    {
        var handler = new RecordingHandler();
        using var client = Create(handler, url, requested is null ? null : Version.Parse(requested));

        await client.GetInfoAsync("x.bin", TestTimeout.Token);

        Assert.Equal(Version.Parse(version), handler.Requests[0].Version);
        Assert.Equal(policy, handler.Requests[0].VersionPolicy);
    }

    [Theory]
    [InlineData("sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")]
    [InlineData("sha-512=:AAAA:, sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")]
    [InlineData("sha-512=:AAAA:", null)]
    [InlineData("sha-256=not-a-byte-sequence", null)]
    public async Task Repr_Digest_Yields_The_Sha256_Among_Several_Algorithms(string header, string? expectedHex)
    {
        var handler = new RecordingHandler { Digest = header };
        using var client = Create(handler, "http://h/");

        var info = await client.GetInfoAsync("x.bin", TestTimeout.Token);

        Assert.Equal(expectedHex, info.Sha256 is null ? null : Convert.ToHexStringLower(info.Sha256));
    }

    [Fact]
    public async Task Upload_Sends_Content_Digest_And_If_None_Match_Star_Without_Overwrite()
    {
        var handler = new RecordingHandler();
        using var client = Create(handler, "http://h/");

        await client.UploadAsync("up.bin", new MemoryStream([]), new UploadOptions { Overwrite = false }, cancellationToken: TestTimeout.Token);

        var request = handler.Requests[0];
        Assert.Equal(HttpMethod.Put, request.Method);
        Assert.Equal("sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:", string.Join(",", request.Headers.GetValues("Content-Digest")));
        Assert.Equal("*", request.Headers.IfNoneMatch.ToString());
        Assert.Null(request.Headers.ExpectContinue);
    }

    [Fact]
    public async Task Upload_With_A_Body_Waits_For_100_Continue()
    {
        var handler = new RecordingHandler();
        using var client = Create(handler, "http://h/");

        // The handler answers as for an empty file: the digest given is the empty file's, which it reports back.
        await client.UploadAsync("up.bin", new MemoryStream(new byte[10]), new UploadOptions { Sha256 = SHA256.HashData([]) }, cancellationToken: TestTimeout.Token);

        Assert.True(handler.Requests[0].Headers.ExpectContinue);
    }

    private static FileTransferClient Create(RecordingHandler handler, string server, Version? version = null) =>
        new(new HttpClient(handler), new FileTransferClientOptions { ServerAddress = new Uri(server), ApiKey = "key-1", HttpVersion = version });

    /// <summary>Answers every request like the server would for an empty file, and keeps the requests.</summary>
    private sealed class RecordingHandler : HttpMessageHandler
    {
        public List<HttpRequestMessage> Requests { get; } = [];

        public string? Digest { get; init; }

        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            Requests.Add(request);
            var response = new HttpResponseMessage(request.Method == HttpMethod.Put ? HttpStatusCode.Created : HttpStatusCode.OK)
            {
                Version = request.Version,
                Content = request.Method == HttpMethod.Put
                    ? new StringContent("""{"name":"up.bin","size":0,"eTag":"\"1\"","sha256":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}""", Encoding.UTF8, "application/json")
                    : new ByteArrayContent([]),
            };
            if (Digest is not null)
            {
                response.Headers.TryAddWithoutValidation("Repr-Digest", Digest);
            }

            return Task.FromResult(response);
        }
    }
}
