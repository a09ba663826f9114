using System.Net;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Rest;

public sealed class DownloadTests(FileTransferFactory factory) : IClassFixture<FileTransferFactory>
{
    private const int Chunk = 32 * 1024;

    public static TheoryData<int> EdgeSizes => [0, 1, Chunk - 1, Chunk, Chunk + 1, (3 * 1024 * 1024) + 12345];

    [Theory]
    [MemberData(nameof(EdgeSizes))]
    public async Task Get_Returns_Exact_Bytes_At_Edge_Sizes(int size)
    {
        var name = $"edge/{size}.bin";
        var source = factory.Storage.WriteRandom(name, size);
        using var client = factory.CreateClient();

        using var response = await client.GetAsync($"/api/files/{name}", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(size, response.Content.Headers.ContentLength);
        var received = await response.Content.ReadAsByteArrayAsync(TestTimeout.Token);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(received));
    }

    [Fact]
    public async Task Get_Sends_Type_Disposition_Validators_And_Nosniff()
    {
        factory.Storage.WriteRandom("headers/report.txt", 10);
        using var client = factory.CreateClient();

        using var response = await client.GetAsync("/api/files/headers/report.txt", TestTimeout.Token);

        Assert.Equal("text/plain", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("inline", response.Content.Headers.ContentDisposition?.DispositionType);
        Assert.Equal("report.txt", response.Content.Headers.ContentDisposition?.FileNameStar);
        Assert.NotNull(response.Content.Headers.LastModified);
        Assert.NotNull(response.Headers.ETag);
        Assert.False(response.Headers.ETag.IsWeak);
        Assert.Equal("bytes", Assert.Single(response.Headers.AcceptRanges));
        Assert.Equal("nosniff", Assert.Single(response.Headers.GetValues("X-Content-Type-Options")));
    }

    [Theory]
    [InlineData("types/data.unknownext", "application/octet-stream", "inline")]
    [InlineData("types/noext", "application/octet-stream", "inline")]
    [InlineData("types/photo.png", "image/png", "inline")]
    [InlineData("types/page.html", "text/html", "attachment")]
    [InlineData("types/logo.svg", "image/svg+xml", "attachment")]
    [InlineData("types/app.js", "text/javascript", "attachment")]
    [InlineData("types/feed.xml", "text/xml", "attachment")]
    [InlineData("types/archive.mht", "message/rfc822", "attachment")]
    [InlineData("types/archive.mhtml", "message/rfc822", "attachment")]
    [InlineData("types/behavior.htc", "text/x-component", "attachment")]
    [InlineData("types/app.hta", "application/hta", "attachment")]
    [InlineData("types/script.vbs", "text/vbscript", "attachment")]
    [InlineData("types/movie.swf", "application/x-shockwave-flash", "attachment")]
    [InlineData("types/notes.txt", "text/plain", "inline")]
    [InlineData("types/legacy.jsx", "text/jscript", "attachment")]
    [InlineData("types/doc.pdf", "application/pdf", "inline")]
    public async Task Get_Derives_Type_From_Extension_And_Never_Renders_Active_Content_Inline(string name, string mediaType, string disposition)
    {
        factory.Storage.WriteRandom(name, 3);
        using var client = factory.CreateClient();

        using var response = await client.GetAsync($"/api/files/{name}", TestTimeout.Token);

        Assert.Equal(mediaType, response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(disposition, response.Content.Headers.ContentDisposition?.DispositionType);
    }

    [Fact]
    public async Task Head_Returns_Headers_Without_Body()
    {
        factory.Storage.WriteRandom("head/file.bin", 5000);
        using var client = factory.CreateClient();

        using var response = await client.SendAsync(new HttpRequestMessage(HttpMethod.Head, "/api/files/head/file.bin"), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(5000, response.Content.Headers.ContentLength);
        Assert.NotNull(response.Headers.ETag);
        Assert.Empty(await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
    }

    [Fact]
    public async Task Unicode_Names_Round_Trip_Exactly()
    {
        const string name = "ünï/日本/é 😀.txt";
        var source = factory.Storage.WriteRandom(name, 100);
        using var client = factory.CreateClient();

        using var list = await client.GetAsync("/api/files?prefix=ünï/", TestTimeout.Token);
        var listed = await list.Content.ReadAsStringAsync(TestTimeout.Token);
        using var response = await client.GetAsync("/api/files/" + Uri.EscapeDataString(name).Replace("%2F", "/"), TestTimeout.Token);

        Assert.Contains("\"name\":\"ünï/日本/é 😀.txt\"", System.Text.RegularExpressions.Regex.Unescape(listed));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(source, await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
        Assert.Equal("é 😀.txt", response.Content.Headers.ContentDisposition?.FileNameStar);
    }

    [Fact]
    public async Task Missing_File_Is_404_Problem()
    {
        using var client = factory.CreateClient();

        using var response = await client.GetAsync("/api/files/does/not/exist.bin", TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.NotFound);
    }

    [Fact]
    public async Task Folder_Is_404_Problem_Not_A_Listing()
    {
        factory.Storage.WriteRandom("folder/inside.bin", 1);
        using var client = factory.CreateClient();

        using var response = await client.GetAsync("/api/files/folder", TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.NotFound);
    }

    [Theory]
    [InlineData("a%5C..%5C..%5Cetc%5Cpasswd")]
    [InlineData("a//b")]
    [InlineData("%252e%252e/%252e%252e/etc/passwd")]
    [InlineData(".ft-upload-123.tmp")]
    [InlineData("C:%5Cwindows%5Cwin.ini")]
    public async Task Refused_Names_Are_400_Problem(string escapedName)
    {
        using var client = factory.CreateClient();

        using var response = await client.GetAsync("/api/files/" + escapedName, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.BadRequest);
    }

    [Fact]
    public async Task List_Returns_Relative_Names_Sizes_And_Hides_Server_Files()
    {
        using var factoryForList = new FileTransferFactory();
        factoryForList.Storage.WriteRandom("a.txt", 3);
        factoryForList.Storage.WriteRandom("sub/b.bin", 7);
        factoryForList.Storage.WriteRandom("sub/.ft-upload-1.tmp", 7);
        using var client = factoryForList.CreateClient();

        var files = await client.GetFromJsonAsync<FileEntry[]>("/api/files", TestTimeout.Token);

        Assert.NotNull(files);
        Assert.Equal(["a.txt", "sub/b.bin"], files.Select(f => f.Name));
        Assert.Equal([3L, 7L], files.Select(f => f.Size));
        Assert.Equal("text/plain", files[0].ContentType);
        Assert.All(files, f => Assert.StartsWith("\"", f.ETag));
    }

    private sealed record FileEntry(string Name, long Size, string ContentType, DateTimeOffset LastModified, string ETag);
}
