using System.Diagnostics.CodeAnalysis;

namespace FileTransfer.Server.Storage;

/// <summary>
/// The one place that turns a client-supplied file name into a path on disk. REST and gRPC both
/// call it; a name it refuses is never opened, listed or written.
/// </summary>
internal sealed class StoragePathResolver(StorageRoot root)
{
    /// <summary>Longest name in UTF-8 bytes, the common PATH_MAX budget left for the root.</summary>
    public const int MaxNameBytes = 1024;

    /// <summary>Longest segment in UTF-8 bytes (NAME_MAX on Linux file systems).</summary>
    public const int MaxSegmentBytes = 255;

    /// <summary>Prefix of the server's own files (uploads in progress, digests); clients cannot name them.</summary>
    public const string ReservedPrefix = ".ft-";

    public bool TryResolve(string? name, [NotNullWhen(true)] out StoragePath? path, [NotNullWhen(false)] out PathRejection? rejection)
    {
        path = null;
        rejection = PathSyntax.Check(name);
        if (rejection is not null)
        {
            return false;
        }

        var segments = name!.Split('/');
        var fullPath = Path.GetFullPath(Path.Join([root.FullPath, .. segments]));
        if (!root.Contains(fullPath))
        {
            rejection = PathRejection.OutsideRoot;
            return false;
        }

        // Following symbolic links must not leave the root either: compare what the OS will open,
        // or create, since an upload's target may be a dangling link.
        var canonical = CanonicalPath.Resolve(fullPath);
        if (canonical is null || root.CanonicalFullPath is not { } canonicalRoot)
        {
            rejection = PathRejection.UnresolvableLink;
            return false;
        }

        if (!CanonicalPath.IsBelow(canonical, canonicalRoot))
        {
            rejection = PathRejection.OutsideRoot;
            return false;
        }

        // The name is kept exactly as sent (no Unicode normalisation) so that it round-trips.
        path = new StoragePath(name, fullPath);
        return true;
    }
}
