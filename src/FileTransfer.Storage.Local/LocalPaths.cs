using System.Diagnostics.CodeAnalysis;
using System.Text;
using FileTransfer.Core;

namespace FileTransfer.Storage.Local;

/// <summary>
/// The one place that turns a client's file name (already checked against the core's
/// <see cref="FileTransfer.Core.FileNames"/>) into a path on disk. A name that leads out of the root
/// through a symbolic link, or through one that cannot be resolved, is refused here and is never
/// opened, listed or written.
/// </summary>
internal sealed class LocalPaths(LocalRoot root) : IDisposable
{
    // The canonical root as the Linux fast path probes below it; null where there is none (elsewhere,
    // or a root that could not be resolved, which refuses every name).
    private readonly byte[]? _canonicalRootUtf8 = OperatingSystem.IsLinux() && root.CanonicalFullPath is { } canonical
        ? Encoding.UTF8.GetBytes(canonical.TrimEnd('/'))
        : null;

    // The same root held open (O_PATH) and checked against its path once a second, so that the fast
    // path's probes are relative to it; null where there is no fast path. Without a descriptor (the root
    // could not be opened; LocalRoot has just created it, so hardly ever) the probes spell out the
    // absolute path, as before.
    private readonly RootFolder? _canonicalRootFolder = OperatingSystem.IsLinux() && root.CanonicalFullPath is { } canonical
        ? new RootFolder(canonical)
        : null;

    /// <summary>
    /// The absolute path of <paramref name="name"/> under the root, or throws the
    /// <see cref="FileTransferException"/> (<see cref="ErrorReason.InvalidFileName"/>) that refuses it.
    /// </summary>
    public string Resolve(string name) => Resolve(name, out _);

    /// <summary>
    /// As <see cref="Resolve(string)"/>; <paramref name="file"/> is the regular file the name is now when
    /// resolving it found one with no link on the way (Linux), else null: what a read's open is checked against.
    /// </summary>
    public string Resolve(string name, out FileIdentity? file) =>
        TryResolve(name, out var fullPath, out file, out var rejection) ? fullPath : throw Failures.InvalidName(rejection);

    public bool TryResolve(string? name, [NotNullWhen(true)] out string? fullPath, [NotNullWhen(false)] out NameRejection? rejection) =>
        TryResolve(name, out fullPath, out _, out rejection);

    private bool TryResolve(string? name, [NotNullWhen(true)] out string? fullPath, out FileIdentity? file, [NotNullWhen(false)] out NameRejection? rejection)
    {
        fullPath = null;
        file = null;
        rejection = FileNames.Check(name);
        if (rejection is not null)
        {
            return false;
        }

        var joined = Join(name!);
        if (!root.Contains(joined))
        {
            rejection = NameRejection.OutsideRoot;
            return false;
        }

        // Following symbolic links must not leave the root either: compare what the OS will open,
        // or create, since an upload's target may be a dangling link. The root itself was resolved
        // once at start; only the name's own segments are looked at on each request. A name with
        // no link in it is its own canonical form below the root (Linux: one statx per segment).
        if (root.CanonicalFullPath is not { } canonicalRoot)
        {
            rejection = NameRejection.UnresolvableLink;
            return false;
        }

        if (_canonicalRootUtf8 is null || !LinkFreeWalk.TryWalk(_canonicalRootUtf8, _canonicalRootFolder?.Current, name!, out file))
        {
            if (CanonicalPath.ResolveBelow(canonicalRoot, joined[root.FullPath.Length..]) is not { } canonical)
            {
                rejection = NameRejection.UnresolvableLink;
                return false;
            }

            if (!CanonicalPath.IsBelow(canonical, canonicalRoot))
            {
                rejection = NameRejection.OutsideRoot;
                return false;
            }
        }

        fullPath = joined;
        return true;
    }

    public void Dispose() => _canonicalRootFolder?.Dispose();

    // A checked name has no empty, "." or ".." segment and no '\' (FileNames.Check), so where '/' is
    // the separator it is already the normal form of its path below the root. Windows spells it anew.
    private string Join(string name) =>
        OperatingSystem.IsWindows() ? Path.GetFullPath(Path.Join([root.FullPath, .. name.Split('/')])) : Path.Join(root.FullPath, name);
}
