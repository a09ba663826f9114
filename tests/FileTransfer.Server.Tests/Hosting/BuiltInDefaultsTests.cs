using System.Net;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>
/// The server's built-in defaults (an HTTP/1.1-only and an HTTP/2-only endpoint, the storage root)
/// hold however it is started. Only the endpoint URLs are overridden here (free ports, on the
/// command line), never their protocols, so the protocols come from the server's own defaults.
/// </summary>
public sealed class BuiltInDefaultsTests : IDisposable
{
    private static readonly string[] PortZero =
    [
        "--Kestrel:Endpoints:Http1:Url=http://127.0.0.1:0",
        "--Kestrel:Endpoints:Http2:Url=http://127.0.0.1:0",
    ];

    private readonly TempStorage _elsewhere = new();
    private readonly string _relativeRoot = $"storage-test-{Guid.NewGuid():N}";

    [Fact]
    public async Task Built_Server_Started_From_Another_Folder_Keeps_Its_Endpoint_Protocols_And_Storage_Root()
    {
        await using var server = await ServerProcess.StartAsync(
            new Dictionary<string, string> { ["Auth__ApiKeys__0__Key"] = FileTransferFactory.TestKey, ["Auth__ApiKeys__0__Scopes__0"] = "read" },
            new ServerProcessOptions
            {
                WorkingDirectory = _elsewhere.RootPath,
                BuiltInEndpoints = true,
                Arguments = [.. PortZero, $"--Storage:RootPath={_relativeRoot}"],
            });

        Assert.Equal(["Http1", "Http2"], server.Endpoints.Select(e => e.Protocols).Order());
        using var http2 = KestrelFactory.ClientFor(server.Http2, HttpVersion.Version20);
        using var response = await http2.GetAsync("/healthz", TestTimeout.Token);
        Assert.Equal(HttpVersion.Version20, response.Version);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        using var http1 = KestrelFactory.ClientFor(server.Http1, HttpVersion.Version11);
        Assert.Equal("Healthy", await http1.GetStringAsync("/healthz", TestTimeout.Token));

        // A relative root resolves against the server's own folder, not the working directory.
        Assert.Contains($"Storage root: {Path.Combine(ServerFolder, _relativeRoot)}", server.Output, StringComparison.Ordinal);
        Assert.Empty(Directory.EnumerateFileSystemEntries(_elsewhere.RootPath));
    }

    [Fact]
    public async Task Curl_With_Http2_Prior_Knowledge_Works_On_The_Http2_Endpoint_Of_A_Server_Started_Elsewhere()
    {
        await using var server = await ServerProcess.StartAsync(
            new Dictionary<string, string>(),
            new ServerProcessOptions { WorkingDirectory = _elsewhere.RootPath, BuiltInEndpoints = true, Arguments = [.. PortZero, $"--Storage:RootPath={_relativeRoot}"] });

        // The second configured endpoint, whatever protocols it came up with.
        var second = server.Endpoints[^1].Url;
        var (exitCode, output) = await RunAsync("curl", "-sS", "--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{http_version} %{http_code}", new Uri(second, "/healthz").ToString());

        Assert.Equal((0, "2 200"), (exitCode, output));
    }

    [Fact]
    public async Task An_Explicit_Content_Root_Still_Decides_Where_A_Relative_Storage_Root_Lives()
    {
        await using var server = await ServerProcess.StartAsync(
            new Dictionary<string, string> { ["ASPNETCORE_CONTENTROOT"] = _elsewhere.RootPath, ["Storage__RootPath"] = "files" },
            new ServerProcessOptions { WorkingDirectory = Path.GetTempPath() });

        Assert.Contains($"Storage root: {Path.Combine(_elsewhere.RootPath, "files")}", server.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Dotnet_Run_From_The_Repository_Root_Stores_Under_The_Project_Folder_As_The_Readme_Says()
    {
        await using var server = await ServerProcess.StartAsync(
            new Dictionary<string, string>(),
            new ServerProcessOptions { DotnetRun = true, WorkingDirectory = RepositoryPaths.Root, BuiltInEndpoints = true, Arguments = PortZero });

        Assert.Equal(["Http1", "Http2"], server.Endpoints.Select(e => e.Protocols).Order());
        var projectStorage = Path.Combine(RepositoryPaths.Root, "src", "FileTransfer.Server", "storage");
        Assert.Contains($"Storage root: {projectStorage}", server.Output, StringComparison.Ordinal);
    }

    private static string ServerFolder => Path.GetDirectoryName(RepositoryPaths.ServerAssembly)!;

    private static async Task<(int ExitCode, string Output)> RunAsync(string fileName, params string[] arguments)
    {
        using var process = System.Diagnostics.Process.Start(new System.Diagnostics.ProcessStartInfo(fileName, arguments) { RedirectStandardOutput = true })!;
        var output = await process.StandardOutput.ReadToEndAsync(TestTimeout.Token);
        await process.WaitForExitAsync(TestTimeout.Token);
        return (process.ExitCode, output);
    }

    public void Dispose()
    {
        _elsewhere.Dispose();
        var created = Path.Combine(ServerFolder, _relativeRoot);
        if (Directory.Exists(created))
        {
            Directory.Delete(created, recursive: true);
        }
    }
}
