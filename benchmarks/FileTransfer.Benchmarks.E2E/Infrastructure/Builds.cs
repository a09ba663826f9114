namespace FileTransfer.Benchmarks.E2E.Infrastructure;

/// <summary>Where the repository and the dlls the solution built next to this harness are.</summary>
internal static class Builds
{
    /// <summary>The folder that holds FileTransfer.sln, above this harness's output.</summary>
    public static string Repository()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "FileTransfer.sln")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException("FileTransfer.sln not found above " + AppContext.BaseDirectory);
    }

    /// <summary>The product's server.</summary>
    public static string ServerDll() => Dll("FileTransfer.Server", "src");

    /// <summary>The product's CLI (<c>filetransfer</c>).</summary>
    public static string CliDll() => Dll("FileTransfer.Cli", "src", "filetransfer");

    /// <summary>The published gRPC services (naive and optimized).</summary>
    public static string PublishedGrpcDll() => Dll("FileTransfer.Benchmarks.NaiveGrpc", "benchmarks");

    /// <summary>A project's dll the solution built in the same configuration as this harness.</summary>
    public static string Dll(string project, string folder, string? assembly = null)
    {
        var configuration = AppContext.BaseDirectory.Contains("/Debug/", StringComparison.Ordinal) ? "Debug" : "Release";
        var dll = Path.Combine(Repository(), folder, project, "bin", configuration, "net10.0", (assembly ?? project) + ".dll");
        return File.Exists(dll) ? dll : throw new FileNotFoundException("Build the solution first: dotnet build FileTransfer.sln -c " + configuration, dll);
    }
}
