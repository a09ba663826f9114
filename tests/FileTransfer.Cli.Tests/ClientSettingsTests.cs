using System.Net;
using FileTransfer.Cli.Http;

namespace FileTransfer.Cli.Tests;

/// <summary>How the tool builds requests: names, signed links, the API key and the HTTP version.</summary>
public sealed class ClientSettingsTests
{
    private static readonly ClientSettings Settings = new(new Uri("http://files.test:5000/base"), "rest", null, "key-1", Quiet: false);

    [Fact]
    public void Names_Are_Escaped_Per_Segment_Under_Api_Files_And_Keep_The_Path_Base()
    {
        var file = RemoteFile.Resolve("a b/ü#?.bin", Settings.Server);

        Assert.Equal("http://files.test:5000/base/api/files/a%20b/%C3%BC%23%3F.bin", file.Url.AbsoluteUri);
        Assert.Equal("ü#?.bin", file.FileName);
    }

    [Fact]
    public void Api_Key_Is_Sent_As_Bearer_With_Names()
    {
        using var request = RestClient.Request(HttpMethod.Get, RemoteFile.Resolve("x.bin", Settings.Server), Settings);

        Assert.Equal("Bearer key-1", request.Headers.Authorization?.ToString());
    }

    [Fact]
    public void Signed_Link_Is_Used_As_Is_Without_The_Api_Key()
    {
        var file = RemoteFile.Resolve("https://cdn.test/api/files/d/r%20x.pdf?exp=9&sig=Zm9v", Settings.Server);
        using var request = RestClient.Request(HttpMethod.Get, file, Settings);

        Assert.Equal("https://cdn.test/api/files/d/r%20x.pdf?exp=9&sig=Zm9v", request.RequestUri!.AbsoluteUri);
        Assert.Equal("d/r x.pdf", file.Name);
        Assert.Null(request.Headers.Authorization);
    }

    [Theory]
    [InlineData("http://h/", null, "1.1", HttpVersionPolicy.RequestVersionExact)]
    [InlineData("http://h/", "2", "2.0", HttpVersionPolicy.RequestVersionExact)]
    [InlineData("https://h/", null, "2.0", HttpVersionPolicy.RequestVersionOrLower)]
    [InlineData("https://h/", "1.1", "1.1", HttpVersionPolicy.RequestVersionExact)]
    public void Http_Version_Is_Prior_Knowledge_On_Http_And_Alpn_On_Https(string url, string? requested, string version, HttpVersionPolicy policy)
    {
        using var request = RestClient.Request(HttpMethod.Get, new Uri(url), requested, apiKey: null);

        Assert.Equal(Version.Parse(version), request.Version);
        Assert.Equal(policy, request.VersionPolicy);
    }

    [Theory]
    [InlineData("sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")]
    [InlineData("sha-512=:AAAA:, sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")]
    [InlineData("sha-512=:AAAA:", null)]
    [InlineData("sha-256=not-a-byte-sequence", null)]
    public void Repr_Digest_Yields_The_Sha256_Among_Several_Algorithms(string header, string? expectedHex)
    {
        using var response = new HttpResponseMessage(HttpStatusCode.OK);
        response.Headers.TryAddWithoutValidation(Digests.ReprDigest, header);

        var digest = Digests.ReadSha256(response, Digests.ReprDigest);

        Assert.Equal(expectedHex, digest is null ? null : Digests.Hex(digest));
    }
}
