using System.Security.Cryptography;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>curl uploads against the upload API contract (PUT with -T, multipart with -F), on real Kestrel.</summary>
public sealed class CurlUploadTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _local = new();

    [Theory]
    [InlineData("--http1.1")]
    [InlineData("--http2-prior-knowledge")]
    public async Task Curl_T_Puts_The_File_And_The_Server_Verifies_Its_Content_Digest(string protocol)
    {
        var source = _local.WriteRandom("up.bin", 2_000_003);
        var endpoint = protocol == "--http1.1" ? HttpProtocols.Http1 : HttpProtocols.Http2;
        var url = new Uri(_server.AddressOf(endpoint), "/api/files/curl/up.bin");
        var digest = $"Content-Digest: sha-256=:{Convert.ToBase64String(SHA256.HashData(source))}:";

        var (exitCode, output) = await CurlDownloadTests.RunCurlAsync("-sS", "-H", ExternalTool.AuthorizationHeader, protocol, "-T", _local.PathOf("up.bin"), "-H", digest, "-w", "\n%{http_code}", url.ToString());

        Assert.True(exitCode == 0, output);
        Assert.EndsWith("\n201", output, StringComparison.Ordinal);
        Assert.Contains($"\"sha256\":\"{Convert.ToHexStringLower(SHA256.HashData(source))}\"", output, StringComparison.Ordinal);
        Assert.Equal(source, await File.ReadAllBytesAsync(_server.Storage.PathOf("curl/up.bin"), TestTimeout.Token));
    }

    [Fact]
    public async Task Curl_T_With_A_Wrong_Content_Digest_Gets_400_And_Stores_Nothing()
    {
        _local.WriteRandom("bad.bin", 10_000);
        var url = new Uri(_server.AddressOf(HttpProtocols.Http1), "/api/files/curl/bad.bin");
        var wrong = $"Content-Digest: sha-256=:{Convert.ToBase64String(SHA256.HashData("other"u8))}:";

        var (exitCode, output) = await CurlDownloadTests.RunCurlAsync("-sS", "-H", ExternalTool.AuthorizationHeader, "-T", _local.PathOf("bad.bin"), "-H", wrong, "-D", "-", "-w", "\n%{http_code}", url.ToString());

        Assert.True(exitCode == 0, output);
        Assert.EndsWith("\n400", output, StringComparison.Ordinal);
        Assert.Contains("Content-Type: application/problem+json", output, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("curl/bad.bin", _server.Storage.Files());
    }

    [Fact]
    public async Task Curl_F_Uploads_Several_Parts_Into_A_Folder()
    {
        var one = _local.WriteRandom("one.bin", 70_000);
        var two = _local.WriteRandom("two.txt", 5);
        var url = new Uri(_server.AddressOf(HttpProtocols.Http1), "/api/files?folder=forms");

        var (exitCode, output) = await CurlDownloadTests.RunCurlAsync("-sS", "-H", ExternalTool.AuthorizationHeader, "-F", $"file=@{_local.PathOf("one.bin")}", "-F", $"file=@{_local.PathOf("two.txt")}", "-w", "\n%{http_code}", url.ToString());

        Assert.True(exitCode == 0, output);
        Assert.EndsWith("\n201", output, StringComparison.Ordinal);
        using var stored = JsonDocument.Parse(output[..output.LastIndexOf('\n')]);
        Assert.Equal(["forms/one.bin", "forms/two.txt"], stored.RootElement.EnumerateArray().Select(f => f.GetProperty("name").GetString()).Order());
        Assert.Equal(one, await File.ReadAllBytesAsync(_server.Storage.PathOf("forms/one.bin"), TestTimeout.Token));
        Assert.Equal(two, await File.ReadAllBytesAsync(_server.Storage.PathOf("forms/two.txt"), TestTimeout.Token));
    }

    public void Dispose()
    {
        _server.Dispose();
        _local.Dispose();
    }
}
