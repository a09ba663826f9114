using FileTransfer.Cli.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Cli.Tests;

/// <summary>
/// <c>filetransfer upload</c> and <c>rm</c> against the upload API contract
/// (PUT/DELETE api/files/{name}, Content-Digest, If-None-Match: *).
/// </summary>
public sealed class UploadCommandTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _local = new();

    [Theory]
    [InlineData(0, "2")]
    [InlineData(1, "1.1")]
    [InlineData(3_157_005, "1.1")]
    [InlineData(3_157_005, "2")]
    public async Task Upload_Stores_The_Exact_Bytes_Under_The_Given_Name(int size, string http)
    {
        var source = _local.WriteRandom("up.bin", size);
        var server = http == "2" ? Http2 : Http1;

        var result = await Tool.RunAsync("upload", _local.PathOf("up.bin"), "uploads/copy.bin", "--server", server, "--http", http, "--protocol", "rest");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("created", result.Error, StringComparison.Ordinal);
        Assert.Contains(TempStorage.Sha256(source).ToLowerInvariant(), result.Error, StringComparison.Ordinal);
        Assert.Equal(source, await File.ReadAllBytesAsync(_server.Storage.PathOf("uploads/copy.bin"), TestTimeout.Token));
    }

    [Fact]
    public async Task Upload_Without_A_Name_Uses_The_Local_File_Name_And_Replaces_By_Default()
    {
        _server.Storage.WriteRandom("report.bin", 10);
        var source = _local.WriteRandom("report.bin", 5000);

        var result = await Tool.RunAsync("upload", _local.PathOf("report.bin"), "--server", Http1);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("replaced", result.Error, StringComparison.Ordinal);
        Assert.Equal(source, await File.ReadAllBytesAsync(_server.Storage.PathOf("report.bin"), TestTimeout.Token));
    }

    [Fact]
    public async Task Upload_No_Overwrite_Exits_8_And_Keeps_The_Existing_File()
    {
        var existing = _server.Storage.WriteRandom("keep.bin", 100);
        _local.WriteRandom("keep.bin", 200);

        var result = await Tool.RunAsync("upload", _local.PathOf("keep.bin"), "keep.bin", "--no-overwrite", "--server", Http1);

        Assert.Equal(8, result.ExitCode);
        Assert.Equal(existing, await File.ReadAllBytesAsync(_server.Storage.PathOf("keep.bin"), TestTimeout.Token));
    }

    [Fact]
    public async Task Upload_Over_The_Size_Limit_Exits_5_And_Stores_Nothing()
    {
        _server.With("Storage:MaxFileSizeBytes", "1000");
        _local.WriteRandom("big.bin", 5000);

        var result = await Tool.RunAsync("upload", _local.PathOf("big.bin"), "big.bin", "--server", Http1);

        Assert.Equal(5, result.ExitCode);
        Assert.DoesNotContain("big.bin", _server.Storage.Files());
    }

    [Theory]
    [InlineData("key", 4)]
    [InlineData("no-overwrite", 8)]
    [InlineData("too-large", 5)]
    [InlineData("folder", 8)]
    public async Task Upload_Of_40_MiB_The_Server_Refuses_Exits_With_Its_Status_Not_7(string refusal, int exitCode)
    {
        // Larger than Kestrel drains: the server answers before it reads the body and closes the connection.
        _local.Write("big.bin", new byte[40 * 1024 * 1024]);
        _server.Storage.WriteRandom("refused/big.bin", 10);
        _server.Storage.WriteRandom("refused/folder/inside.bin", 10);
        if (refusal == "too-large")
        {
            _server.With("Storage:MaxFileSizeBytes", (20 * 1024 * 1024).ToString(System.Globalization.CultureInfo.InvariantCulture));
        }

        string[] args = refusal switch
        {
            "key" => ["--api-key", "wrong-key-0123456789abcdefghijklmnop"],
            "no-overwrite" => ["--no-overwrite"],
            _ => [],
        };
        var name = refusal == "folder" ? "refused/folder" : "refused/big.bin";

        var result = await Tool.RunAsync(["upload", _local.PathOf("big.bin"), name, "--server", Http1, .. args]);

        Assert.True(result.ExitCode == exitCode, result.ToString());
        Assert.DoesNotContain("Broken pipe", result.Error, StringComparison.Ordinal);
        Assert.Equal(10, new FileInfo(_server.Storage.PathOf("refused/big.bin")).Length);
    }

    [Fact]
    public async Task Upload_Of_A_Missing_Local_File_Exits_3()
    {
        var result = await Tool.RunAsync("upload", _local.PathOf("nope.bin"), "--server", Http1);

        Assert.Equal(3, result.ExitCode);
        Assert.Contains("no local file", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Rm_Deletes_The_File_And_Exits_3_The_Second_Time()
    {
        _server.Storage.WriteRandom("gone/soon.bin", 10);

        var first = await Tool.RunAsync("rm", "gone/soon.bin", "--server", Http1);
        var second = await Tool.RunAsync("rm", "gone/soon.bin", "--server", Http1);

        Assert.True(first.ExitCode == 0, first.ToString());
        Assert.False(File.Exists(_server.Storage.PathOf("gone/soon.bin")));
        Assert.Equal(3, second.ExitCode);
    }

    private string Http1 => _server.AddressOf(HttpProtocols.Http1).ToString();

    private string Http2 => _server.AddressOf(HttpProtocols.Http2).ToString();

    public void Dispose()
    {
        _server.Dispose();
        _local.Dispose();
    }
}
