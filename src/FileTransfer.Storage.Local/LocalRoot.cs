using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace FileTransfer.Storage.Local;

/// <summary>The storage root as one canonical absolute path, created at start if missing.</summary>
internal sealed class LocalRoot
{
    public LocalRoot(IOptions<LocalStorageOptions> options, IHostEnvironment environment)
        : this(Path.GetFullPath(options.Value.RootPath, environment.ContentRootPath))
    {
    }

    public LocalRoot(string configured)
    {
        Directory.CreateDirectory(configured);

        // Canonicalise through links once, so that "is this under the root" is a plain prefix test later.
        var info = new DirectoryInfo(configured);
        var target = info.ResolveLinkTarget(returnFinalTarget: true);
        FullPath = Path.TrimEndingDirectorySeparator(target?.FullName ?? info.FullName);
        CanonicalFullPath = CanonicalPath.Resolve(FullPath);
    }

    /// <summary>Absolute path of the root without a trailing separator.</summary>
    public string FullPath { get; }

    /// <summary>
    /// The root as the OS sees it once every link on the way to it is followed (<see cref="CanonicalPath"/>),
    /// or null when that cannot be resolved: canonical paths of names below it are compared with this,
    /// not with the configured spelling.
    /// </summary>
    public string? CanonicalFullPath { get; }

    /// <summary>True when <paramref name="path"/> is the root or lies below it.</summary>
    public bool Contains(string path) =>
        path.Equals(FullPath, StringComparison.Ordinal)
        || (path.StartsWith(FullPath, StringComparison.Ordinal) && path[FullPath.Length] == Path.DirectorySeparatorChar);
}
