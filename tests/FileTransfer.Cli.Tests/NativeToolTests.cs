using FileTransfer.Cli.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Interop;

namespace FileTransfer.Cli.Tests;

/// <summary>
/// The native executable (Native AOT, what docs/cli.md installs) does what the dotnet tool does:
/// everything that could differ once compiled ahead of time (the listing's JSON, gRPC's messages and
/// status details, TLS-free HTTP/2) works over both protocols against the built server.
/// </summary>
public sealed class NativeToolTests : IAsyncLifetime
{
    private readonly TempStorage _serverStorage = new();
    private readonly TempStorage _local = new();
    private ServerProcess _server = null!;
    private string[] _tool = null!;

    public async Task InitializeAsync()
    {
        _tool = [await NativeTool.PathAsync()];
        _server = await ServerProcess.StartAsync(new Dictionary<string, string>
        {
            ["Storage__RootPath"] = _serverStorage.RootPath,
            ["Auth__ApiKeys__0__Key"] = ExternalTool.ApiKey,
            ["Auth__ApiKeys__0__Scopes__0"] = "read",
            ["Auth__ApiKeys__0__Scopes__1"] = "write",
        });
    }

    [Fact]
    public async Task Version_Prints_The_Tools_Version()
    {
        var result = await Tool.RunProgramAsync(_tool, _local.RootPath, new Dictionary<string, string>(), "--version");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.StartsWith("1.0.0", result.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("rest")]
    [InlineData("grpc")]
    public async Task Uploads_Lists_Downloads_And_Exits_3_For_A_Missing_File(string protocol)
    {
        var source = _local.WriteRandom("up.bin", 3_000_000);
        var server = (protocol == "grpc" ? _server.Http2 : _server.Http1).ToString();
        var environment = new Dictionary<string, string> { ["FILETRANSFER_API_KEY"] = ExternalTool.ApiKey };
        string[] where = ["--server", server, "--protocol", protocol];

        var upload = await Tool.RunProgramAsync(_tool, _local.RootPath, environment, ["upload", _local.PathOf("up.bin"), $"n/{protocol}.bin", .. where]);
        var list = await Tool.RunProgramAsync(_tool, _local.RootPath, environment, ["ls", "n/", "--json", .. where]);
        var download = await Tool.RunProgramAsync(_tool, _local.RootPath, environment, ["download", $"n/{protocol}.bin", "-o", _local.PathOf("down.bin"), .. where]);
        var missing = await Tool.RunProgramAsync(_tool, _local.RootPath, environment, ["download", "n/none.bin", "-o", _local.PathOf("none.bin"), .. where]);

        Assert.True(upload.ExitCode == 0, upload.ToString());
        Assert.Contains($"\"name\":\"n/{protocol}.bin\",\"size\":3000000", list.Output, StringComparison.Ordinal);
        Assert.True(download.ExitCode == 0, download.ToString());
        Assert.Contains("verified", download.Error, StringComparison.Ordinal);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await File.ReadAllBytesAsync(_local.PathOf("down.bin"), TestTimeout.Token)));
        Assert.True(missing.ExitCode == 3, missing.ToString());
    }

    public async Task DisposeAsync()
    {
        await _server.DisposeAsync();
        _serverStorage.Dispose();
        _local.Dispose();
    }
}
