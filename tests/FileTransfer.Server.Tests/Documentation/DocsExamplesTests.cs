using System.Diagnostics;
using System.Text.RegularExpressions;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Documentation;

/// <summary>
/// The examples of README.md and docs/, taken from the markdown files and run as written against the
/// built server as its own process (Development, so reads are anonymous as with the plain run
/// command). The only edits are what a reader does: the address of this run's ports instead of
/// localhost:5000 and :5001, the key where the text says to paste it, and the current ETag where it
/// says "&lt;etag&gt;".
/// </summary>
public sealed partial class DocsExamplesTests : IAsyncLifetime
{
    private const string Key = "docs-examples-key-0123456789abcdef";
    private const string GrpcApi = "docs/grpc-api.md";
    private readonly TempStorage _storage = new();
    private readonly TempStorage _work = new();
    private ServerProcess _server = null!;

    public async Task InitializeAsync() =>
        _server = await ServerProcess.StartAsync(new Dictionary<string, string>
        {
            ["ASPNETCORE_ENVIRONMENT"] = "Development",
            ["Storage__RootPath"] = _storage.RootPath,
            ["Auth__ApiKeys__0__Key"] = Key,
            ["Auth__ApiKeys__0__Scopes__0"] = "read",
            ["Auth__ApiKeys__0__Scopes__1"] = "write",
            ["Auth__ApiKeys__0__Scopes__2"] = "delete",
        });

    [Fact]
    public async Task The_Curl_Examples_Answer_What_Their_Comments_Say()
    {
        var script = Addresses(Docs.Block("README.md", "## Quick start with curl", "bash"))
            .Replace("KEY=<the key from the log line \"No API key is configured: using the development key ...\">", $"KEY={Key}", StringComparison.Ordinal);

        // The reader pastes the ETag from the HEAD response into the header.
        script = EtagHeader().Replace(script, "\"$1: \\\"$(current_etag)\\\"\"");
        Assert.DoesNotContain("<etag>", script, StringComparison.Ordinal);

        // Each curl reports its status on standard error, so that the sequence can be checked;
        // current_etag is what the reader copies from the HEAD response.
        var prelude = $$"""
            set -euo pipefail
            curl() { command curl -w '%{stderr}HTTP %{http_code}\n' "$@"; }
            current_etag() { command curl -sI {{_server.Http1}}api/files/videos/big.bin | sed -n 's/^etag: "\(.*\)"\r$/\1/Ip'; }
            """;
        var (exitCode, output, error) = await RunAsync("bash", ["-c", prelude + "\n" + script], TimeSpan.FromMinutes(3));

        Assert.True(exitCode == 0, $"exit {exitCode}\n{error}");
        Assert.Equal(
            [201, 200, 412, 200, 200, 200, 201, 200, 200, 416, 206, 200, 200, 304, 200, 204],
            StatusLine().Matches(error).Select(m => int.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture)));
        var digests = output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)[^2..];
        Assert.Equal($"sha-256=:{digests[1]}:", digests[0].Split(' ', 2)[1]);
    }

    [Fact]
    public async Task The_Grpc_Examples_Move_The_File_Both_Ways_In_Node_Python_And_Dotnet()
    {
        var source = _work.WriteRandom("big.bin", 3_000_000);
        Directory.CreateSymbolicLink(_work.PathOf("protos"), Path.Combine(RepositoryPaths.Root, "protos"));
        var grpcAddress = $"{_server.Http2.Host}:{_server.Http2.Port}";

        // Node.js, with the packages `npm install` would fetch taken from the interop client's pinned copy.
        await File.WriteAllTextAsync(_work.PathOf("files.js"), Docs.Block(GrpcApi, "**Node.js**", "js").Replace("localhost:5001", grpcAddress, StringComparison.Ordinal));
        var node = await RunAsync("node", ["files.js"], TimeSpan.FromMinutes(1), ("NODE_PATH", Path.Combine(RepositoryPaths.Root, "tests", "interop", "node", "node_modules")));
        AssertRan(node, source, "node");

        // Python: the stubs generated exactly as the protoc line in the docs does.
        var protoc = Docs.Block(GrpcApi, "**Python**", "bash").Split('\n').SkipWhile(l => !l.StartsWith("mkdir", StringComparison.Ordinal));
        Assert.Equal(0, (await RunAsync("bash", ["-c", string.Join('\n', protoc)], TimeSpan.FromMinutes(1))).ExitCode);
        await File.WriteAllTextAsync(_work.PathOf("files.py"), Docs.Block(GrpcApi, "**Python**", "python").Replace("localhost:5001", grpcAddress, StringComparison.Ordinal));
        AssertRan(await RunAsync("/usr/bin/python3", ["files.py"], TimeSpan.FromMinutes(1)), source, "python");

        // .NET: the project the docs describe, built and run.
        var project = _work.PathOf("dotnet");
        Directory.CreateDirectory(project);
        await File.WriteAllTextAsync(Path.Combine(project, "example.csproj"), DotnetProject());
        await File.WriteAllTextAsync(Path.Combine(project, "Program.cs"), Docs.Block(GrpcApi, "**.NET**", "csharp").Replace("http://localhost:5001", _server.Http2.ToString().TrimEnd('/'), StringComparison.Ordinal));
        AssertRan(await RunAsync("dotnet", ["run", "--project", project], TimeSpan.FromMinutes(4)), source, ".NET");
    }

    [Fact]
    public async Task The_Client_Library_Example_Runs_Against_The_Package_The_Docs_Pack()
    {
        var source = _work.WriteRandom("big.bin", 3_000_000);
        var packages = _work.PathOf("packages");
        // A version of its own, so that no package cached by an earlier run is used instead of this build.
        var version = $"1.0.0-readme.{DateTime.UtcNow:yyyyMMddHHmmssfff}";

        // As docs/client-library.md says: dotnet pack src/FileTransfer.Client (from this run's build), then reference the package.
        var pack = await RunAsync("dotnet", ["pack", Path.Combine(RepositoryPaths.Root, "src", "FileTransfer.Client"), "-c", RepositoryPaths.Configuration, "--no-build", "-o", packages, $"-p:PackageVersion={version}"], TimeSpan.FromMinutes(2));
        Assert.True(pack.ExitCode == 0, pack.Output + pack.Error);
        var project = _work.PathOf("library");
        Directory.CreateDirectory(project);
        await File.WriteAllTextAsync(Path.Combine(project, "example.csproj"), ConsoleProject(
            $"<RestoreAdditionalProjectSources>{packages}</RestoreAdditionalProjectSources>",
            $"""<PackageReference Include="FileTransfer.Client" Version="{version}" />"""));
        await File.WriteAllTextAsync(Path.Combine(project, "Program.cs"), Docs.Block("docs/client-library.md", "## A complete example", "csharp").Replace("http://localhost:5001", _server.Http2.ToString().TrimEnd('/'), StringComparison.Ordinal));

        var run = await RunAsync("dotnet", ["run", "--project", project], TimeSpan.FromMinutes(4));

        Assert.True(run.ExitCode == 0, $"exit {run.ExitCode}\n{run.Output}\n{run.Error}");
        Assert.Contains("verified: True", run.Output, StringComparison.Ordinal);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(File.ReadAllBytes(_work.PathOf("copy.bin"))));
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(File.ReadAllBytes(_work.PathOf("copy2.bin"))));
        Assert.Empty(_storage.VisibleFiles());
        ForgetCachedPackage(version);
    }

    // NuGet extracts every restored version into the global packages folder; this one is never needed again.
    private static void ForgetCachedPackage(string version)
    {
        var home = Environment.GetEnvironmentVariable("NUGET_PACKAGES") ?? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".nuget", "packages");
        var cached = Path.Combine(home, "filetransfer.client", version);
        if (Directory.Exists(cached))
        {
            Directory.Delete(cached, recursive: true);
        }
    }

    private void AssertRan((int ExitCode, string Output, string Error) run, byte[] source, string stack)
    {
        Assert.True(run.ExitCode == 0, $"{stack}: exit {run.ExitCode}\n{run.Output}\n{run.Error}");
        Assert.Contains("There is no file named 'videos/big.bin'.", run.Output, StringComparison.Ordinal);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(File.ReadAllBytes(_work.PathOf("copy.bin"))));
        File.Delete(_work.PathOf("copy.bin"));
        Assert.Empty(_storage.VisibleFiles());
    }

    // The packages docs/grpc-api.md names, at the versions this repository pins centrally.
    private static string DotnetProject()
    {
        var versions = File.ReadAllText(Path.Combine(RepositoryPaths.Root, "Directory.Packages.props"));
        string Version(string package) => Regex.Match(versions, $"Include=\"{Regex.Escape(package)}\" Version=\"([^\"]+)\"").Groups[1].Value;
        var protos = Path.Combine(RepositoryPaths.Root, "protos");
        return ConsoleProject(
            "<ManagePackageVersionsCentrally>false</ManagePackageVersionsCentrally>",
            $"""
            <PackageReference Include="Grpc.Net.Client" Version="{Version("Grpc.Net.Client")}" />
            <PackageReference Include="Google.Protobuf" Version="{Version("Google.Protobuf")}" />
            <PackageReference Include="Grpc.Tools" Version="{Version("Grpc.Tools")}" PrivateAssets="all" />
            <Protobuf Include="{protos}/filetransfer/v1/file_service.proto" ProtoRoot="{protos}" GrpcServices="Client" />
            """);
    }

    // A console project as a reader of the docs would create it, with the properties and items an example needs.
    private static string ConsoleProject(string properties, string items) => $"""
        <Project Sdk="Microsoft.NET.Sdk">
          <PropertyGroup>
            <OutputType>Exe</OutputType>
            <TargetFramework>net10.0</TargetFramework>
            <ImplicitUsings>enable</ImplicitUsings>
            <Nullable>enable</Nullable>
            {properties}
          </PropertyGroup>
          <ItemGroup>
            {items}
          </ItemGroup>
        </Project>
        """;

    private string Addresses(string text) =>
        text.Replace("http://localhost:5000/", _server.Http1.ToString(), StringComparison.Ordinal)
            .Replace("http://localhost:5001/", _server.Http2.ToString(), StringComparison.Ordinal);

    private async Task<(int ExitCode, string Output, string Error)> RunAsync(string command, string[] arguments, TimeSpan timeout, params (string Name, string Value)[] environment)
    {
        var start = new ProcessStartInfo(command, arguments) { WorkingDirectory = _work.RootPath };
        start.Environment["FILETRANSFER_API_KEY"] = Key;
        foreach (var (name, value) in environment)
        {
            start.Environment[name] = value;
        }

        var run = await ChildProcess.RunAsync(start, timeout);
        if (run.TimedOut)
        {
            throw new TimeoutException($"{command} {string.Join(' ', arguments)} ran past {timeout}:\n{run.Output}\n{run.Error}");
        }

        return (run.ExitCode, run.Output, run.Error);
    }

    [GeneratedRegex(@"'(If-[A-Za-z-]+): ""<etag>""'")]
    private static partial Regex EtagHeader();

    [GeneratedRegex(@"^HTTP (\d{3})$", RegexOptions.Multiline)]
    private static partial Regex StatusLine();

    public async Task DisposeAsync()
    {
        await _server.DisposeAsync();
        _storage.Dispose();
        _work.Dispose();
    }
}
