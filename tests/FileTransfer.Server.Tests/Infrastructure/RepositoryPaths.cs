namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>Locations in the source tree, found from the test binaries.</summary>
public static class RepositoryPaths
{
    public static string Root { get; } = FindRoot();

    /// <summary>"Debug" or "Release", whichever this test assembly was built with.</summary>
    public static string Configuration { get; } =
        AppContext.BaseDirectory.Contains($"{Path.DirectorySeparatorChar}Release{Path.DirectorySeparatorChar}", StringComparison.Ordinal) ? "Release" : "Debug";

    public static string ServerAssembly { get; } =
        Path.Combine(Root, "src", "FileTransfer.Server", "bin", Configuration, "net10.0", "FileTransfer.Server.dll");

    private static string FindRoot()
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
}
