using FileTransfer.Cli.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Cli.Tests;

/// <summary>Ctrl+C (the cancellation the tool's entry point is given): exit 130 and what each command really leaves behind.</summary>
public sealed class InterruptTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _local = new();

    [Fact]
    public async Task Download_Keeps_The_Part_And_Says_The_Same_Command_Resumes_It()
    {
        _server.Storage.WriteRandom("int/big.bin", 100_000);
        var output = _local.PathOf("big.bin");
        await File.WriteAllBytesAsync(output + ".part", new byte[1000], TestTimeout.Token);

        var result = await Interrupted("download", "int/big.bin", "-o", output);

        Assert.True(result.ExitCode == 130, result.ToString());
        Assert.Contains($"interrupted; the 1000 B received so far are kept in {output}.part; run the same command to resume.", result.Error, StringComparison.Ordinal);
        Assert.Equal(1000, new FileInfo(output + ".part").Length);
    }

    [Fact]
    public async Task Download_Before_Any_Byte_Says_Nothing_Is_Kept()
    {
        _server.Storage.WriteRandom("int/big.bin", 100_000);

        var result = await Interrupted("download", "int/big.bin", "-o", _local.PathOf("big.bin"));

        Assert.True(result.ExitCode == 130, result.ToString());
        Assert.Contains("interrupted; nothing was received, and nothing is kept.", result.Error, StringComparison.Ordinal);
        Assert.Empty(_local.Files());
    }

    [Fact]
    public async Task Download_To_Standard_Output_Says_The_Output_Is_Incomplete()
    {
        _server.Storage.WriteRandom("int/big.bin", 100_000);

        var result = await Interrupted("download", "int/big.bin", "-o", "-");

        Assert.True(result.ExitCode == 130, result.ToString());
        Assert.Contains("interrupted; what was written to standard output is incomplete; nothing is kept to resume.", result.Error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("upload", "the server keeps nothing of an interrupted upload; a file it had under that name is unchanged.")]
    [InlineData("ls", "the listing is incomplete; nothing on the server changed.")]
    [InlineData("info", "nothing was changed.")]
    [InlineData("rm", "the delete may or may not have reached the server: 'filetransfer info int/a.bin' tells whether the file is still there.")]
    public async Task Other_Commands_Say_What_Is_True_Of_Them_And_Nothing_Of_A_Partial_Download(string command, string note)
    {
        var existing = _server.Storage.WriteRandom("int/a.bin", 10);
        _local.WriteRandom("a.bin", 100_000);
        string[] args = command switch
        {
            "upload" => ["upload", _local.PathOf("a.bin"), "int/a.bin"],
            "ls" => ["ls", "int/"],
            _ => [command, "int/a.bin"],
        };

        var result = await Interrupted(args);

        Assert.True(result.ExitCode == 130, result.ToString());
        Assert.Contains($"filetransfer: interrupted; {note}", result.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("partial download", result.Error, StringComparison.Ordinal);
        if (command == "upload")
        {
            Assert.Equal(existing, await File.ReadAllBytesAsync(_server.Storage.PathOf("int/a.bin"), TestTimeout.Token));
        }
    }

    // Ctrl+C before the command reached the server.
    private Task<CliResult> Interrupted(params string[] args) =>
        Tool.RunAsync(new ToolRun { Cancellation = new CancellationToken(canceled: true) }, [.. args, "--server", _server.AddressOf(HttpProtocols.Http1).ToString()]);

    public void Dispose()
    {
        _server.Dispose();
        _local.Dispose();
    }
}
