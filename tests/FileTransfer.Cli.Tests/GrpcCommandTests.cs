using FileTransfer.Cli.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Cli.Tests;

/// <summary>Every command with <c>--protocol grpc</c> against the real server's cleartext HTTP/2 endpoint: same files, same exit codes as REST.</summary>
public sealed class GrpcCommandTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _local = new();

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(32_768)]
    [InlineData(3_157_005)]
    public async Task Download_Writes_The_Exact_Bytes_And_Leaves_No_Part_File(int size)
    {
        var source = _server.Storage.WriteRandom("g/file.bin", size);
        var output = _local.PathOf("file.bin");

        var result = await Grpc("download", "g/file.bin", "-o", output);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await File.ReadAllBytesAsync(output, TestTimeout.Token)));
        Assert.Equal(["file.bin"], _local.Files());
        Assert.Contains("verified", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Download_Resumes_The_Part_With_Offset_And_If_Match()
    {
        var source = _server.Storage.WriteRandom("g/resume.bin", 1_000_000);
        var output = _local.PathOf("resume.bin");
        await File.WriteAllBytesAsync(output + ".part", source[..32_768], TestTimeout.Token);
        var info = await Grpc("info", "g/resume.bin");
        var eTag = info.Output.Split('\n').Single(l => l.StartsWith("etag: ", StringComparison.Ordinal))["etag: ".Length..];
        await File.WriteAllTextAsync(output + ".part.etag", eTag, TestTimeout.Token);

        var result = await Grpc("download", "g/resume.bin", "-o", output);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("resumed at byte 32768", result.Error, StringComparison.Ordinal);
        Assert.Equal(source, await File.ReadAllBytesAsync(output, TestTimeout.Token));
        Assert.Equal(["resume.bin"], _local.Files());
    }

    [Fact]
    public async Task Download_Starts_Over_When_The_File_Changed_Since_The_Part_Was_Written()
    {
        var source = _server.Storage.WriteRandom("g/changed.bin", 300_000);
        var output = _local.PathOf("changed.bin");
        await File.WriteAllBytesAsync(output + ".part", new byte[100_000], TestTimeout.Token);
        await File.WriteAllTextAsync(output + ".part.etag", "\"an-older-version\"", TestTimeout.Token);

        var result = await Grpc("download", "g/changed.bin", "-o", output);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("changed on the server", result.Error, StringComparison.Ordinal);
        Assert.Equal(source, await File.ReadAllBytesAsync(output, TestTimeout.Token));
    }

    [Fact]
    public async Task Download_Exits_6_When_The_Resumed_Prefix_Fails_The_Digest()
    {
        var source = _server.Storage.WriteRandom("g/corrupt.bin", 200_000);
        var output = _local.PathOf("corrupt.bin");
        var corrupt = source[..50_000];
        corrupt[10] ^= 0xFF;
        await File.WriteAllBytesAsync(output + ".part", corrupt, TestTimeout.Token);

        var result = await Grpc("download", "g/corrupt.bin", "-o", output);

        Assert.Equal(6, result.ExitCode);
        Assert.Contains("Digest mismatch", result.Error, StringComparison.Ordinal);
        Assert.Empty(_local.Files());
    }

    [Fact]
    public async Task Download_Cut_For_Good_Exits_7_And_Keeps_The_Part()
    {
        var source = _server.Storage.WriteRandom("g/cut.bin", 3_000_000);
        var output = _local.PathOf("cut.bin");
        await using var proxy = new CuttingProxy(_server.AddressOf(HttpProtocols.Http2), cutAfterBytes: 1_000_000, cutDownstream: true, refuseAfterCut: true,
            cutWhen: () => File.Exists(output + ".part") && new FileInfo(output + ".part").Length > 0);

        var result = await Tool.RunAsync("download", "g/cut.bin", "-o", output, "--server", proxy.Address.ToString(), "--protocol", "grpc");

        Assert.Equal(7, result.ExitCode);
        Assert.Contains("cut.bin.part is kept", result.Error, StringComparison.Ordinal);
        var kept = await File.ReadAllBytesAsync(output + ".part", TestTimeout.Token);
        Assert.NotEmpty(kept);
        Assert.Equal(source[..kept.Length], kept);
    }

    [Theory]
    [InlineData(0, null)]
    [InlineData(1, "1")]
    [InlineData(3_157_005, null)]
    [InlineData(3_157_005, "1MiB")]
    [InlineData(3_157_005, "4MiB")]
    public async Task Upload_Stores_The_Exact_Bytes_In_Chunks_Of_The_Given_Size(int size, string? chunkSize)
    {
        var source = _local.WriteRandom("up.bin", size);
        string[] chunk = chunkSize is null ? [] : ["--chunk-size", chunkSize];

        var result = await Grpc(["upload", _local.PathOf("up.bin"), "g/up/copy.bin", .. chunk]);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains(TempStorage.Sha256(source).ToLowerInvariant() + " verified by the server", result.Error, StringComparison.Ordinal);
        Assert.Equal(source, await File.ReadAllBytesAsync(_server.Storage.PathOf("g/up/copy.bin"), TestTimeout.Token));
    }

    [Fact]
    public async Task Upload_No_Overwrite_Exits_8_And_Keeps_The_Existing_File()
    {
        var existing = _server.Storage.WriteRandom("g/keep.bin", 100);
        _local.WriteRandom("keep.bin", 200);

        var result = await Grpc("upload", _local.PathOf("keep.bin"), "g/keep.bin", "--no-overwrite");

        Assert.Equal(8, result.ExitCode);
        Assert.Contains("ALREADY_EXISTS", result.Error, StringComparison.Ordinal);
        Assert.Equal(existing, await File.ReadAllBytesAsync(_server.Storage.PathOf("g/keep.bin"), TestTimeout.Token));
    }

    [Fact]
    public async Task Upload_Over_The_Size_Limit_Exits_5_And_Stores_Nothing()
    {
        _server.With("Storage:MaxFileSizeBytes", "1000");
        _local.WriteRandom("big.bin", 5000);

        var result = await Grpc("upload", _local.PathOf("big.bin"), "g/big.bin");

        Assert.Equal(5, result.ExitCode);
        Assert.DoesNotContain("g/big.bin", _server.Storage.Files());
    }

    [Theory]
    [InlineData("0")]
    [InlineData("5MiB")]
    [InlineData("lots")]
    public async Task Upload_Chunk_Size_Outside_1_B_To_4_MiB_Exits_2(string chunkSize)
    {
        _local.WriteRandom("c.bin", 10);

        var result = await Grpc("upload", _local.PathOf("c.bin"), "--chunk-size", chunkSize);

        Assert.Equal(2, result.ExitCode);
        Assert.Contains("--chunk-size", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Ls_Follows_Every_Page()
    {
        // More than one page of the server's default 1,000 files.
        for (var i = 0; i < 1_005; i++)
        {
            _server.Storage.Write($"g/many/{i:D4}.bin", [1]);
        }

        var result = await Grpc("ls", "g/many/");

        Assert.True(result.ExitCode == 0, result.ToString());
        var lines = result.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(1_005, lines.Length);
        Assert.EndsWith("g/many/1004.bin", lines[^1], StringComparison.Ordinal);
    }

    [Fact]
    public async Task Rm_Deletes_With_If_Match_And_Exits_8_For_Another_Version_And_3_When_Gone()
    {
        _server.Storage.WriteRandom("g/rm.bin", 10);
        var info = await Grpc("info", "g/rm.bin");
        var eTag = info.Output.Split('\n').Single(l => l.StartsWith("etag: ", StringComparison.Ordinal))["etag: ".Length..];

        var stale = await Grpc("rm", "g/rm.bin", "--if-match", "\"another-version\"");
        var first = await Grpc("rm", "g/rm.bin", "--if-match", eTag);
        var second = await Grpc("rm", "g/rm.bin");

        Assert.Equal(8, stale.ExitCode);
        Assert.True(first.ExitCode == 0, first.ToString());
        Assert.False(File.Exists(_server.Storage.PathOf("g/rm.bin")));
        Assert.Equal(3, second.ExitCode);
        Assert.Contains("Not found (NOT_FOUND)", second.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Missing_Api_Key_Exits_4_And_Says_How_To_Pass_One()
    {
        _server.Storage.WriteRandom("g/auth.bin", 10);
        var noKey = new Dictionary<string, string> { ["FILETRANSFER_API_KEY"] = string.Empty };

        var result = await Tool.RunAsync(noKey, "info", "g/auth.bin", "--server", Http2, "--protocol", "grpc");

        Assert.Equal(4, result.ExitCode);
        Assert.Contains("UNAUTHENTICATED", result.Error, StringComparison.Ordinal);
        Assert.Contains("--api-key", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Refused_Name_Exits_2_And_A_Signed_Link_Exits_2()
    {
        var refused = await Grpc("info", ".ft-secret");
        var link = await Grpc("info", "http://127.0.0.1:5000/api/files/a.bin?sig=x");

        Assert.Equal(2, refused.ExitCode);
        Assert.Contains("reserved for the server", refused.Error, StringComparison.Ordinal);
        Assert.Equal(2, link.ExitCode);
    }

    [Fact]
    public async Task Http_1_1_With_Grpc_Is_A_Usage_Error()
    {
        var result = await Grpc("ls", "--http", "1.1");

        Assert.Equal(2, result.ExitCode);
        Assert.Contains("HTTP/2", result.Error, StringComparison.Ordinal);
    }

    private string Http2 => _server.AddressOf(HttpProtocols.Http2).ToString();

    private Task<CliResult> Grpc(params string[] args) => Tool.RunAsync([.. args, "--server", Http2, "--protocol", "grpc"]);

    public void Dispose()
    {
        _server.Dispose();
        _local.Dispose();
    }
}
