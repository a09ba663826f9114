using FileTransfer.Cli.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Cli.Tests;

/// <summary><c>filetransfer upload --resume</c>: a run cut off mid-upload, run again, continues from the server's offset.</summary>
public sealed class ResumeCommandTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _local = new();

    [Theory]
    [InlineData("rest")]
    [InlineData("grpc")]
    public async Task The_Same_Command_After_A_Cut_Continues_From_The_Server_Offset(string protocol)
    {
        var source = _local.WriteRandom("big.bin", 6 * 1024 * 1024);
        var environment = new Dictionary<string, string> { ["XDG_STATE_HOME"] = _local.PathOf("state") };
        var upstream = _server.AddressOf(protocol == "grpc" ? HttpProtocols.Http2 : HttpProtocols.Http1);

        // The only connection that proxy lets through is cut after 2 MB of the upload.
        await using var proxy = new CuttingProxy(upstream, cutAfterBytes: 2_000_000, cutDownstream: false);
        string[] command = ["upload", "--resume", _local.PathOf("big.bin"), "resume/big.bin", "--server", proxy.Address.ToString(), "--protocol", protocol];

        var cut = await Tool.RunAsync(environment, command);
        Assert.True(cut.ExitCode == 7, cut.ToString());
        Assert.DoesNotContain("resume/big.bin", _server.Storage.VisibleFiles());
        Assert.Single(Directory.GetFiles(_local.PathOf("state/filetransfer/uploads")));

        var resumed = await Tool.RunAsync(environment, command);

        Assert.True(resumed.ExitCode == 0, resumed.ToString());
        Assert.Matches(@"resumed at byte [1-9]\d*;", resumed.Error);
        Assert.Equal(source, await File.ReadAllBytesAsync(_server.Storage.PathOf("resume/big.bin"), TestTimeout.Token));
        Assert.Empty(Directory.GetFiles(_local.PathOf("state/filetransfer/uploads")));
    }

    [Fact]
    public async Task Resume_Refuses_Standard_Input()
    {
        var result = await Tool.RunAsync("upload", "--resume", "-", "x.bin");

        Assert.True(result.ExitCode == 2, result.ToString());
        Assert.Contains("--resume needs a local file", result.Error, StringComparison.Ordinal);
    }

    public void Dispose()
    {
        _server.Dispose();
        _local.Dispose();
    }
}
