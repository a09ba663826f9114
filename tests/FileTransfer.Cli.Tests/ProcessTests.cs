using FileTransfer.Cli.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Interop;

namespace FileTransfer.Cli.Tests;

/// <summary>The built tool (<c>dotnet filetransfer.dll</c>) against the built server, both as processes.</summary>
public sealed class ProcessTests : IAsyncLifetime
{
    private static readonly Dictionary<string, string> NoEnvironment = [];
    private readonly TempStorage _serverStorage = new();
    private readonly TempStorage _local = new();
    private ServerProcess _server = null!;

    // The key is ignored until authentication lands, then it is the one the tool sends.
    public async Task InitializeAsync() =>
        _server = await ServerProcess.StartAsync(new Dictionary<string, string>
        {
            ["Storage__RootPath"] = _serverStorage.RootPath,
            ["Auth__ApiKeys__0__Key"] = ExternalTool.ApiKey,
            ["Auth__ApiKeys__0__Scopes__0"] = "read",
            ["Auth__ApiKeys__0__Scopes__1"] = "write",
        });

    [Fact]
    public async Task Help_Lists_Every_Command()
    {
        var result = await Tool.RunProcessAsync(_local.RootPath, NoEnvironment, "--help");

        Assert.True(result.ExitCode == 0, result.ToString());
        foreach (var command in new[] { "download", "upload", "ls", "info", "rm" })
        {
            Assert.Matches($@"(?m)^\s+{command}\b", result.Output);
        }

        Assert.Contains("--protocol", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Download_With_The_Documented_Command_Line_Writes_The_Exact_Bytes()
    {
        var source = _serverStorage.WriteRandom("videos/clip.bin", 2_500_000);
        var output = _local.PathOf("clip.bin");

        var result = await Tool.RunProcessAsync(_local.RootPath, NoEnvironment,
            "download", "videos/clip.bin", "-o", output, "--server", _server.Http1.ToString(), "--protocol", "rest", "--api-key", ExternalTool.ApiKey);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await File.ReadAllBytesAsync(output, TestTimeout.Token)));
        // Redirected output gets plain lines, no terminal control sequences.
        Assert.Contains("clip.bin: 2.4 MiB done in", result.Error, StringComparison.Ordinal);
        Assert.DoesNotContain('\u001b', result.Error);
    }

    [Fact]
    public async Task Download_Of_A_Missing_File_Exits_3()
    {
        var environment = new Dictionary<string, string> { ["FILETRANSFER_SERVER"] = _server.Http2.ToString(), ["FILETRANSFER_API_KEY"] = ExternalTool.ApiKey };
        var result = await Tool.RunProcessAsync(_local.RootPath, environment,
            "download", "no/such.bin", "--http", "2");

        Assert.Equal(3, result.ExitCode);
        Assert.Contains("There is no file named 'no/such.bin'", result.Error, StringComparison.Ordinal);
        Assert.Empty(_local.Files());
    }

    [Fact]
    public async Task Upload_With_The_Documented_Command_Line_Stores_The_Exact_Bytes()
    {
        var source = _local.WriteRandom("photo.jpg", 1_234_567);

        var result = await Tool.RunProcessAsync(_local.RootPath, new Dictionary<string, string> { ["FILETRANSFER_API_KEY"] = ExternalTool.ApiKey },
            "upload", _local.PathOf("photo.jpg"), "photos/photo.jpg", "--server", _server.Http1.ToString(), "--protocol", "rest");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(source, await File.ReadAllBytesAsync(_serverStorage.PathOf("photos/photo.jpg"), TestTimeout.Token));
    }

    [Fact]
    public async Task Upload_And_Download_Over_Grpc_With_The_Documented_Command_Line()
    {
        var source = _local.WriteRandom("big.bin", 1_500_000);
        var environment = new Dictionary<string, string> { ["FILETRANSFER_API_KEY"] = ExternalTool.ApiKey };
        var server = _server.Http2.ToString();

        var upload = await Tool.RunProcessAsync(_local.RootPath, environment,
            "upload", "./big.bin", "videos/big.bin", "--server", server, "--protocol", "grpc", "--chunk-size", "256KiB");
        var download = await Tool.RunProcessAsync(_local.RootPath, environment,
            "download", "videos/big.bin", "-o", "./copy.bin", "--server", server, "--protocol", "grpc");

        Assert.True(upload.ExitCode == 0, upload.ToString());
        Assert.True(download.ExitCode == 0, download.ToString());
        Assert.Equal(source, await File.ReadAllBytesAsync(_serverStorage.PathOf("videos/big.bin"), TestTimeout.Token));
        Assert.Equal(source, await File.ReadAllBytesAsync(_local.PathOf("copy.bin"), TestTimeout.Token));
        Assert.Contains("big.bin: 1.4 MiB done in", download.Error, StringComparison.Ordinal);
        Assert.DoesNotContain('\u001b', download.Error);
    }

    [Fact]
    public async Task Dash_Pipes_Standard_Input_Up_And_The_File_Down_To_Standard_Output()
    {
        var source = System.Security.Cryptography.RandomNumberGenerator.GetBytes(3_000_000);
        var environment = new Dictionary<string, string> { ["FILETRANSFER_API_KEY"] = ExternalTool.ApiKey };
        var server = _server.Http1.ToString();

        var upload = await Tool.RunProcessWithPipesAsync(_local.RootPath, environment, source, "upload", "-", "pipes/db.dump", "--server", server);
        var download = await Tool.RunProcessWithPipesAsync(_local.RootPath, environment, [], "download", "pipes/db.dump", "-o", "-", "--server", server);

        Assert.True(upload.ExitCode == 0, upload.ToString());
        Assert.Equal(source, await File.ReadAllBytesAsync(_serverStorage.PathOf("pipes/db.dump"), TestTimeout.Token));
        Assert.True(download.ExitCode == 0, download.ToString());
        // Standard output holds the file and nothing else; progress and notes went to standard error.
        Assert.Equal(source, download.OutputBytes);
        Assert.Contains("db.dump: 2.9 MiB done in", download.Error, StringComparison.Ordinal);
        Assert.Empty(_local.Files());
    }

    public async Task DisposeAsync()
    {
        await _server.DisposeAsync();
        _serverStorage.Dispose();
        _local.Dispose();
    }
}
