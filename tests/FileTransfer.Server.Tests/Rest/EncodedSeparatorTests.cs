using System.Net;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Rest;

/// <summary>
/// OpenAPI clients (Swagger UI's "Try it out", generated clients) encode the <c>{path}</c> parameter
/// as a single value, so a file in a folder arrives as <c>videos%2Fnotes.txt</c>. It names the same
/// file as <c>videos/notes.txt</c>, for every method, for signed links, and nothing else changes:
/// an escape that is still there after one decoding is refused as before. On real Kestrel, whose
/// decoding of the request target is what this is about.
/// </summary>
public sealed class EncodedSeparatorTests : IDisposable
{
    private readonly KestrelFactory _factory = new();

    [Theory]
    [InlineData("videos%2Fnotes.txt")]
    [InlineData("videos%2fnotes.txt")]
    [InlineData("a%2Fb%2Fc.txt")]
    public async Task An_Encoded_Separator_Names_The_File_In_The_Folder(string encoded)
    {
        var name = Uri.UnescapeDataString(encoded);
        using var client = KestrelFactory.ClientFor(_factory.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        var bytes = TestData.RandomBytes(1000);

        using var put = await client.PutAsync($"/api/files/{encoded}", new ByteArrayContent(bytes), TestTimeout.Token);
        using var get = await client.GetAsync($"/api/files/{encoded}", TestTimeout.Token);
        var body = await get.Content.ReadAsByteArrayAsync(TestTimeout.Token);
        using var delete = await client.DeleteAsync($"/api/files/{encoded}", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        Assert.Equal("/api/files/" + name, put.Headers.Location?.OriginalString);
        Assert.Equal(HttpStatusCode.OK, get.StatusCode);
        Assert.Equal(bytes, body);
        Assert.Equal(HttpStatusCode.NoContent, delete.StatusCode);
        Assert.Empty(_factory.Storage.VisibleFiles());
    }

    [Fact]
    public async Task A_Signed_Link_For_The_Name_Works_With_The_Encoded_Separator()
    {
        _factory.Storage.Write("videos/notes.txt", [1, 2, 3]);
        using var client = KestrelFactory.ClientFor(_factory.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        using var issued = await client.PostAsJsonAsync("/api/links", new { path = "videos/notes.txt", access = "read" }, TestTimeout.Token);
        var token = (await issued.Content.ReadFromJsonAsync<Link>(TestTimeout.Token))!.Token;
        using var anonymous = new HttpClient { BaseAddress = _factory.AddressOf(HttpProtocols.Http1) };

        using var response = await anonymous.GetAsync($"/api/files/videos%2Fnotes.txt?sig={token}", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal([1, 2, 3], await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
    }

    [Theory]
    [InlineData("videos%252Fnotes.txt")]
    [InlineData("..%2Fsecret.txt")]
    [InlineData("videos%2F..%2F..%2Fsecret.txt")]
    public async Task Encoded_Separators_Open_No_Way_Out_Of_The_Rules(string encoded)
    {
        using var client = KestrelFactory.ClientFor(_factory.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);

        using var response = await client.PutAsync($"/api/files/{encoded}", new ByteArrayContent([1]), TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, HttpStatusCode.BadRequest);
        Assert.Equal("INVALID_FILE_NAME", problem.GetProperty("reason").GetString());
        Assert.Empty(_factory.Storage.VisibleFiles());
    }

    private sealed record Link(string Token);

    public void Dispose() => _factory.Dispose();
}
