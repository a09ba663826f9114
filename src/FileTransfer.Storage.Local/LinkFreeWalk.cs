using System.Text;
using Microsoft.Win32.SafeHandles;

namespace FileTransfer.Storage.Local;

/// <summary>
/// The common case of <see cref="LocalPaths"/> on Linux, a name with no link in it, for one statx(2)
/// per segment and no allocation: each segment below the canonical root is looked at without
/// following a link (AT_SYMLINK_NOFOLLOW). When none is a link, the name resolves to itself, which
/// is what <see cref="CanonicalPath.ResolveBelow"/> would answer after an lstat of each segment; and
/// when the last is a regular file, its identity is what the name opens now, since for a last
/// segment that is not a link, following it and not following it agree: the open-file cache checks
/// its handle against it instead of asking the kernel a second time.
/// </summary>
/// <remarks>
/// A link swapped in after this look is followed by the open, as it was after the full
/// resolution's lstat (File.OpenHandle takes no O_NOFOLLOW); the window is no wider, and the cache
/// does not keep a handle that is not the file looked at.
/// With a descriptor of the root, each probe is relative to it: the kernel walks and copies the name's
/// own segments only, not the root's path again on every call.
/// </remarks>
internal static class LinkFreeWalk
{
    /// <summary>PATH_MAX with its NUL: the kernel refuses longer paths, and the full resolution reports why.</summary>
    private const int LongestPathBytes = 4096;

    /// <summary>
    /// True when no segment of <paramref name="name"/> below <paramref name="canonicalRoot"/> (UTF-8,
    /// without a trailing separator) is a link, as far as the segments exist: parts below a missing
    /// one cannot be links. <paramref name="file"/> is then the name's regular file, or null when it is
    /// missing or something else. False when a segment is a link or a probe failed otherwise: the
    /// caller resolves the name in full. The name must have passed <see cref="FileTransfer.Core.FileNames.Check"/>:
    /// '/' separated, without an empty, "." or ".." segment, so that it needs no resolution of its own.
    /// Each segment is looked up from <paramref name="rootFolder"/>, a descriptor of the canonical root
    /// (<see cref="FolderDescriptor"/>), or, without one, by its absolute path.
    /// </summary>
    public static bool TryWalk(ReadOnlySpan<byte> canonicalRoot, SafeFileHandle? rootFolder, string name, out FileIdentity? file)
    {
        file = null;
        var nameLength = Encoding.UTF8.GetByteCount(name);

        // The absolute path is what the caller opens, whichever way the segments are looked up here.
        if (canonicalRoot.Length + 1 + nameLength >= LongestPathBytes)
        {
            return false;
        }

        if (rootFolder is null || !TryHold(rootFolder))
        {
            Span<byte> path = stackalloc byte[canonicalRoot.Length + 1 + nameLength + 1];
            canonicalRoot.CopyTo(path);
            path[canonicalRoot.Length] = (byte)'/';
            Encoding.UTF8.GetBytes(name, path[(canonicalRoot.Length + 1)..]);
            return Walk(FileIdentity.CurrentFolder, path, canonicalRoot.Length + 1, out file);
        }

        // Held (TryHold) for the whole walk, so that a dispose meanwhile cannot close the descriptor
        // under it (and let its number name another file).
        try
        {
            Span<byte> relative = stackalloc byte[nameLength + 1];
            Encoding.UTF8.GetBytes(name, relative);
            return Walk((int)rootFolder.DangerousGetHandle(), relative, 0, out file);
        }
        finally
        {
            rootFolder.DangerousRelease();
        }
    }

    // A descriptor already disposed (RootFolder opened the root anew, or the host is stopping) cannot be
    // held: the walk then spells out the absolute path, as without one.
    private static bool TryHold(SafeFileHandle rootFolder)
    {
        var added = false;
        try
        {
            rootFolder.DangerousAddRef(ref added);
        }
        catch (ObjectDisposedException)
        {
            return false;
        }

        return added;
    }

    // The name's bytes start at `start` of `path`, whose last byte is left for a NUL.
    private static bool Walk(int folder, Span<byte> path, int start, out FileIdentity? file)
    {
        file = null;
        var length = path.Length - 1;

        // Each segment in turn: the path up to it, ended by a NUL where its separator is. UTF-8 never
        // encodes anything else with the byte of '/', and a checked name holds no NUL.
        while (true)
        {
            var separator = path[start..length].IndexOf((byte)'/');
            var last = separator < 0;
            var end = last ? length : start + separator;
            path[end] = 0;
            var entry = FileIdentity.Probe(folder, path, out var identity);
            if (!last)
            {
                path[end] = (byte)'/';
            }

            if (entry is PathEntry.Link or PathEntry.Unknown)
            {
                return false;
            }

            if (entry is PathEntry.Missing)
            {
                return true;
            }

            if (last)
            {
                file = entry is PathEntry.RegularFile ? identity : null;
                return true;
            }

            start = end + 1;
        }
    }
}
