using System.Net;
using FileTransfer.Cli.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Cli.Tests;

/// <summary><c>filetransfer download</c> against the real server on Kestrel.</summary>
public sealed class DownloadCommandTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _local = new();

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(131_072)]
    [InlineData(3_157_005)]
    public async Task Download_Writes_The_Exact_Bytes_And_Leaves_No_Part_File(int size)
    {
        var source = _server.Storage.WriteRandom("cli/file.bin", size);
        var output = _local.PathOf("file.bin");

        var result = await Tool.RunAsync("download", "cli/file.bin", "-o", output, "--server", Http1, "--protocol", "rest");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await File.ReadAllBytesAsync(output, TestTimeout.Token)));
        Assert.Equal(["file.bin"], _local.Files());
    }

    [Theory]
    [InlineData("1.1")]
    [InlineData("2")]
    public async Task Download_Speaks_The_Requested_Http_Version_On_Its_Endpoint(string version)
    {
        var source = _server.Storage.WriteRandom("cli/versions.bin", 700_001);
        var server = version == "2" ? Http2 : Http1;
        var output = _local.PathOf("versions.bin");

        var result = await Tool.RunAsync("download", "cli/versions.bin", "-o", output, "--server", server, "--http", version);
        var info = await Tool.RunAsync("info", "cli/versions.bin", "--server", server, "--http", version);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(source, await File.ReadAllBytesAsync(output, TestTimeout.Token));
        Assert.Contains($"http-version: {(version == "2" ? "2.0" : "1.1")}", info.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(32_768)]
    [InlineData(999_999)]
    public async Task Download_Resumes_A_Partial_Part_File_From_Where_It_Stopped(int alreadyThere)
    {
        var source = _server.Storage.WriteRandom("cli/resume.bin", 1_000_000);
        var output = _local.PathOf("resume.bin");
        await File.WriteAllBytesAsync(output + ".part", source[..alreadyThere], TestTimeout.Token);
        await File.WriteAllTextAsync(output + ".part.etag", await ETagOfAsync("cli/resume.bin"), TestTimeout.Token);

        var result = await Tool.RunAsync("download", "cli/resume.bin", "-o", output, "--server", Http1);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains($"resumed at byte {alreadyThere}", result.Error, StringComparison.Ordinal);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await File.ReadAllBytesAsync(output, TestTimeout.Token)));
        Assert.Equal(["resume.bin"], _local.Files());
    }

    [Fact]
    public async Task Download_Starts_Over_When_The_File_Changed_Since_The_Part_Was_Written()
    {
        var source = _server.Storage.WriteRandom("cli/changed.bin", 300_000);
        var output = _local.PathOf("changed.bin");
        var stale = new byte[100_000];
        await File.WriteAllBytesAsync(output + ".part", stale, TestTimeout.Token);
        await File.WriteAllTextAsync(output + ".part.etag", "\"an-older-version\"", TestTimeout.Token);

        var result = await Tool.RunAsync("download", "cli/changed.bin", "-o", output, "--server", Http1);

        // If-Range with an old ETag gets 200 and the whole file (RFC 9110 13.1.5).
        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("changed on the server", result.Error, StringComparison.Ordinal);
        Assert.Equal(source, await File.ReadAllBytesAsync(output, TestTimeout.Token));
    }

    [Fact]
    public async Task Download_Starts_Over_When_The_Part_Is_Longer_Than_The_File()
    {
        var source = _server.Storage.WriteRandom("cli/shrunk.bin", 1000);
        var output = _local.PathOf("shrunk.bin");
        await File.WriteAllBytesAsync(output + ".part", new byte[5000], TestTimeout.Token);

        var result = await Tool.RunAsync("download", "cli/shrunk.bin", "-o", output, "--server", Http1);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(source, await File.ReadAllBytesAsync(output, TestTimeout.Token));
    }

    [Fact]
    public async Task Download_Into_A_Folder_Keeps_The_Name_And_Reports_Plain_Progress()
    {
        var source = _server.Storage.WriteRandom("cli/sub/näme with space.bin", 50_000);

        var result = await Tool.RunAsync("download", "cli/sub/näme with space.bin", "-o", _local.RootPath + "/", "--server", Http1);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(source, await File.ReadAllBytesAsync(_local.PathOf("näme with space.bin"), TestTimeout.Token));
        Assert.Matches(@"näme with space\.bin: 48\.8 KiB done in", result.Error);
        Assert.DoesNotContain('\r', result.Error);
    }

    [Fact]
    public async Task Quiet_Download_Writes_Nothing_But_The_File()
    {
        _server.Storage.WriteRandom("cli/quiet.bin", 10_000);

        var result = await Tool.RunAsync("download", "cli/quiet.bin", "-o", _local.PathOf("quiet.bin"), "--server", Http1, "--quiet");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(string.Empty, result.Output + result.Error);
    }

    [Fact]
    public async Task Download_Of_A_Missing_File_Exits_3_With_The_Servers_Detail()
    {
        var output = _local.PathOf("missing.bin");

        var result = await Tool.RunAsync("download", "cli/missing.bin", "-o", output, "--server", Http1);

        Assert.Equal(3, result.ExitCode);
        Assert.Contains("There is no file named 'cli/missing.bin'", result.Error, StringComparison.Ordinal);
        Assert.Empty(_local.Files());
    }

    [Fact]
    public async Task Download_Verifies_The_Repr_Digest_And_Exits_6_When_The_Resumed_Prefix_Is_Wrong()
    {
        // Needs Repr-Digest on GET (upload API on main): without it the corrupt prefix cannot be detected.
        var source = _server.Storage.WriteRandom("cli/corrupt.bin", 200_000);
        var output = _local.PathOf("corrupt.bin");
        var corrupt = source[..50_000];
        corrupt[10] ^= 0xFF;
        await File.WriteAllBytesAsync(output + ".part", corrupt, TestTimeout.Token);
        await File.WriteAllTextAsync(output + ".part.etag", await ETagOfAsync("cli/corrupt.bin"), TestTimeout.Token);

        var result = await Tool.RunAsync("download", "cli/corrupt.bin", "-o", output, "--server", Http1);

        Assert.Equal(6, result.ExitCode);
        Assert.Contains("Digest mismatch", result.Error, StringComparison.Ordinal);
        Assert.Empty(_local.Files());
    }

    private string Http1 => _server.AddressOf(HttpProtocols.Http1).ToString();

    private string Http2 => _server.AddressOf(HttpProtocols.Http2).ToString();

    private async Task<string> ETagOfAsync(string name)
    {
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        using var response = await client.SendAsync(new HttpRequestMessage(HttpMethod.Head, "/api/files/" + name), TestTimeout.Token);
        return response.Headers.ETag!.ToString();
    }

    public void Dispose()
    {
        _server.Dispose();
        _local.Dispose();
    }
}
