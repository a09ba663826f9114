using System.Net;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Interop;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Security;

/// <summary>curl with nothing but a signed link, against real Kestrel, as the README shows it.</summary>
public sealed class CurlLinkTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _downloads = new();
    private readonly HttpClient _client;

    public CurlLinkTests()
    {
        _client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
    }

    [Fact]
    public async Task Curl_Downloads_With_A_Read_Link_Alone()
    {
        var source = _server.Storage.WriteRandom("shared/report.bin", 300_000);
        var link = await SignedLinkTests.IssueAsync(_client, new { path = "shared/report.bin", access = "read", expiresInSeconds = 600 });
        var output = Path.Combine(_downloads.RootPath, "report.bin");

        var (exitCode, stderr) = await CurlDownloadTests.RunCurlAsync("-sS", "--fail", "-o", output, link.Url);

        Assert.True(exitCode == 0, stderr);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await File.ReadAllBytesAsync(output, TestTimeout.Token)));
    }

    [Fact]
    public async Task Curl_Without_The_Link_Or_With_Another_Files_Link_Is_Refused()
    {
        _server.Storage.WriteRandom("shared/a.bin", 10);
        _server.Storage.WriteRandom("shared/b.bin", 10);
        var link = await SignedLinkTests.IssueAsync(_client, new { path = "shared/a.bin", access = "read" });
        var url = new Uri(_server.AddressOf(HttpProtocols.Http1), "/api/files/shared/b.bin");

        var (_, anonymous) = await CurlDownloadTests.RunCurlAsync("-s", "-o", "/dev/null", "-w", "%{http_code}", url.ToString());
        var (_, otherFile) = await CurlDownloadTests.RunCurlAsync("-s", "-o", "/dev/null", "-w", "%{http_code}", $"{url}?sig={link.Token}");

        Assert.Equal("401", anonymous);
        Assert.Equal("403", otherFile);
    }

    [Theory]
    [InlineData(5, false, "201")]
    [InlineData(4, false, "413")]
    [InlineData(5, true, "400")]
    public async Task Curl_Uploads_With_A_Write_Link_Within_Its_Cap_And_Digest(int maxBytes, bool wrongDigest, string expected)
    {
        var file = Path.Combine(_downloads.RootPath, "hello.txt");
        await File.WriteAllTextAsync(file, "hello", TestTimeout.Token);
        var sha256 = wrongDigest ? new string('0', 64) : TempStorage.Sha256("hello"u8.ToArray()).ToLowerInvariant();
        var link = await SignedLinkTests.IssueAsync(_client, new { path = "inbox/hello.txt", access = "write", maxBytes, sha256 });

        var (_, status) = await CurlDownloadTests.RunCurlAsync("-s", "-o", "/dev/null", "-w", "%{http_code}", "-T", file, link.Url);

        Assert.Equal(expected, status);
        Assert.Equal(expected == "201", File.Exists(_server.Storage.PathOf("inbox/hello.txt")));
    }

    public void Dispose()
    {
        _client.Dispose();
        _server.Dispose();
        _downloads.Dispose();
    }
}
