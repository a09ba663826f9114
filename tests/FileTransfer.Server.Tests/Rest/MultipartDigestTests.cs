using System.Net;
using System.Security.Cryptography;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Rest;

/// <summary>
/// RFC 9530 3: a request's <c>Content-Digest</c> covers its whole content, which for a form is the
/// multipart body, not each file in it. A part may carry its own digest in its own headers.
/// </summary>
public sealed class MultipartDigestTests : IDisposable
{
    private readonly FileTransferFactory _factory = new();

    [Fact]
    public async Task A_Digest_Of_The_Whole_Form_Is_Checked_Against_The_Whole_Body_And_The_Files_Are_Stored()
    {
        var (body, contentType, files) = Form();
        using var client = _factory.CreateClient();

        using var response = await client.SendAsync(Post(body, contentType, SHA256.HashData(body)), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        Assert.Equal(files[0], await File.ReadAllBytesAsync(_factory.Storage.PathOf("forms/a.bin"), TestTimeout.Token));
        Assert.Equal(files[1], await File.ReadAllBytesAsync(_factory.Storage.PathOf("forms/b.bin"), TestTimeout.Token));
    }

    [Fact]
    public async Task A_Form_Whose_Body_Does_Not_Match_Its_Digest_Stores_Nothing()
    {
        var (body, contentType, _) = Form();
        using var client = _factory.CreateClient();

        using var response = await client.SendAsync(Post(body, contentType, SHA256.HashData([1, 2, 3])), TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, HttpStatusCode.BadRequest);
        Assert.Equal("DIGEST_MISMATCH", problem.GetProperty("reason").GetString());
        Assert.Empty(_factory.Storage.Files());
    }

    [Theory]
    [InlineData(true, HttpStatusCode.Created)]
    [InlineData(false, HttpStatusCode.BadRequest)]
    public async Task A_Parts_Own_Digest_Is_Checked_Against_That_Part(bool right, HttpStatusCode expected)
    {
        var bytes = TestData.RandomBytes(70_000);
        var part = new ByteArrayContent(bytes);
        part.Headers.Add("Content-Digest", $"sha-256=:{Convert.ToBase64String(SHA256.HashData(right ? bytes : [9]))}:");
        using var form = new MultipartFormDataContent { { part, "file", "own.bin" } };
        using var client = _factory.CreateClient();

        using var response = await client.PostAsync("/api/files?folder=forms", form, TestTimeout.Token);

        Assert.Equal(expected, response.StatusCode);
        Assert.Equal(right, File.Exists(_factory.Storage.PathOf("forms/own.bin")));
    }

    // A form of two files, serialized once so that its digest can be taken over the exact bytes sent.
    private static (byte[] Body, string ContentType, byte[][] Files) Form()
    {
        byte[][] files = [TestData.RandomBytes(300_000), TestData.RandomBytes(17)];
        using var form = new MultipartFormDataContent
        {
            { new ByteArrayContent(files[0]), "file", "a.bin" },
            { new ByteArrayContent(files[1]), "file", "b.bin" },
        };
        return (form.ReadAsByteArrayAsync().GetAwaiter().GetResult(), form.Headers.ContentType!.ToString(), files);
    }

    private static HttpRequestMessage Post(byte[] body, string contentType, byte[] digest)
    {
        var content = new ByteArrayContent(body);
        content.Headers.TryAddWithoutValidation("Content-Type", contentType);
        content.Headers.Add("Content-Digest", $"sha-256=:{Convert.ToBase64String(digest)}:");
        return new HttpRequestMessage(HttpMethod.Post, "/api/files?folder=forms") { Content = content };
    }

    public void Dispose() => _factory.Dispose();
}
