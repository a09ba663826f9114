using System.Diagnostics.CodeAnalysis;
using FileTransfer.Core;

namespace FileTransfer.Storage.Local;

/// <summary>
/// The one place that turns a client's file name (already checked against the core's
/// <see cref="FileTransfer.Core.FileNames"/>) into a path on disk. A name that leads out of the root
/// through a symbolic link, or through one that cannot be resolved, is refused here and is never
/// opened, listed or written.
/// </summary>
internal sealed class LocalPaths(LocalRoot root)
{
    /// <summary>
    /// The absolute path of <paramref name="name"/> under the root, or throws the
    /// <see cref="FileTransferException"/> (<see cref="ErrorReason.InvalidFileName"/>) that refuses it.
    /// </summary>
    public string Resolve(string name) =>
        TryResolve(name, out var fullPath, out var rejection) ? fullPath : throw Failures.InvalidName(rejection);

    public bool TryResolve(string? name, [NotNullWhen(true)] out string? fullPath, [NotNullWhen(false)] out NameRejection? rejection)
    {
        fullPath = null;
        rejection = FileNames.Check(name);
        if (rejection is not null)
        {
            return false;
        }

        var joined = Path.GetFullPath(Path.Join([root.FullPath, .. name!.Split('/')]));
        if (!root.Contains(joined))
        {
            rejection = NameRejection.OutsideRoot;
            return false;
        }

        // Following symbolic links must not leave the root either: compare what the OS will open,
        // or create, since an upload's target may be a dangling link. The root itself was resolved
        // once at start; only the name's own segments are looked at on each request.
        if (root.CanonicalFullPath is not { } canonicalRoot
            || CanonicalPath.ResolveBelow(canonicalRoot, joined[root.FullPath.Length..]) is not { } canonical)
        {
            rejection = NameRejection.UnresolvableLink;
            return false;
        }

        if (!CanonicalPath.IsBelow(canonical, canonicalRoot))
        {
            rejection = NameRejection.OutsideRoot;
            return false;
        }

        fullPath = joined;
        return true;
    }
}
