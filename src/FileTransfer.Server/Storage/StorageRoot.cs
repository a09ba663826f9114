using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Storage;

/// <summary>The storage root as one canonical absolute path, created at start if missing.</summary>
internal sealed class StorageRoot
{
    public StorageRoot(IOptions<StorageOptions> options, IHostEnvironment environment)
    {
        var configured = Path.GetFullPath(options.Value.RootPath, environment.ContentRootPath);
        Directory.CreateDirectory(configured);

        // Canonicalise through links once, so that "is this under the root" is a plain prefix test later.
        var info = new DirectoryInfo(configured);
        var target = info.ResolveLinkTarget(returnFinalTarget: true);
        FullPath = Path.TrimEndingDirectorySeparator(target?.FullName ?? info.FullName);
    }

    /// <summary>Absolute path of the root without a trailing separator.</summary>
    public string FullPath { get; }

    /// <summary>True when <paramref name="path"/> is the root or lies below it.</summary>
    public bool Contains(string path) =>
        path.Equals(FullPath, StringComparison.Ordinal)
        || (path.StartsWith(FullPath, StringComparison.Ordinal) && path[FullPath.Length] == Path.DirectorySeparatorChar);
}
