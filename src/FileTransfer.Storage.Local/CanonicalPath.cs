namespace FileTransfer.Storage.Local;

/// <summary>
/// Resolves a path the way the operating system will when it opens or creates it: every symbolic
/// link (or junction) followed, "." and ".." applied after each link, as POSIX path resolution does
/// (POSIX.1-2017 XBD 4.13). Parts that do not exist yet (an upload's target) cannot be links, so
/// they are appended as they are.
/// </summary>
/// <remarks>
/// Written out component by component rather than calling realpath(3): realpath fails on a
/// dangling link and on a chain whose last link dangles, and a fallback that only reads the first
/// link lets "a -> b -> /outside/new" pass as "inside" while creating "a" writes outside.
/// </remarks>
public static class CanonicalPath
{
    /// <summary>Linux gives up after 40 links (MAXSYMLINKS); so do we, which also ends loops.</summary>
    public const int MaxLinkHops = 40;

    private static readonly char[] Separators = [Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar];

    /// <summary>
    /// The canonical form of the absolute <paramref name="fullPath"/>, or null when it cannot be
    /// resolved safely: a link loop, more than <see cref="MaxLinkHops"/> links, or a link target
    /// that steps back out of a folder that does not exist.
    /// </summary>
    public static string? Resolve(string fullPath)
    {
        var root = Path.GetPathRoot(fullPath);
        return string.IsNullOrEmpty(root) ? null : ResolveBelow(root, fullPath[root.Length..]);
    }

    /// <summary>
    /// The canonical form of <paramref name="relative"/> under <paramref name="canonicalBase"/>, a folder
    /// already in canonical form: only the parts of <paramref name="relative"/> are looked at, not the
    /// base's own (a name under the storage root costs a look at its own segments, not the root's).
    /// Null as <see cref="Resolve"/>.
    /// </summary>
    public static string? ResolveBelow(string canonicalBase, string relative)
    {
        var pending = new Stack<string>();
        Push(pending, relative);
        var current = canonicalBase;
        var missing = false;
        var hops = 0;

        while (pending.TryPop(out var segment))
        {
            if (segment is "" or ".")
            {
                continue;
            }

            if (segment == "..")
            {
                // "missing/.." is an error for the OS but lexically harmless; refuse rather than guess.
                if (missing)
                {
                    return null;
                }

                current = Path.GetDirectoryName(current) ?? current;
                continue;
            }

            var next = Path.Join(current, segment);
            var exists = false;
            var target = missing ? null : LinkTarget(next, out exists);
            if (target is null)
            {
                missing = missing || !exists;
                current = next;
                continue;
            }

            if (++hops > MaxLinkHops)
            {
                return null;
            }

            // A relative target is relative to the folder holding the link, which is `current`.
            var targetRoot = Path.GetPathRoot(target);
            if (!string.IsNullOrEmpty(targetRoot))
            {
                current = targetRoot;
                target = target[targetRoot.Length..];
            }

            Push(pending, target);
        }

        return current;
    }

    /// <summary>True when <paramref name="path"/> is <paramref name="root"/> or lies below it.</summary>
    public static bool IsUnder(string path, string root) =>
        path.Equals(root, StringComparison.Ordinal)
        || (path.StartsWith(root, StringComparison.Ordinal)
            && (root.EndsWith(Path.DirectorySeparatorChar) || path[root.Length] == Path.DirectorySeparatorChar));

    /// <summary>True when <paramref name="path"/> lies below <paramref name="root"/>: the root itself is not below it.</summary>
    public static bool IsBelow(string path, string root) =>
        IsUnder(path, root) && path.Length > root.Length;

    private static void Push(Stack<string> pending, string relative)
    {
        var segments = relative.Split(Separators);
        for (var i = segments.Length - 1; i >= 0; i--)
        {
            pending.Push(segments[i]);
        }
    }

    // One lstat(2) tells whether anything is there and whether it is a link; only a link is read.
    private static string? LinkTarget(string path, out bool exists)
    {
        try
        {
            var info = new FileInfo(path);
            var attributes = info.Attributes;
            exists = (int)attributes != -1;
            return exists && attributes.HasFlag(FileAttributes.ReparsePoint) ? info.LinkTarget : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Not readable as a link: the OS cannot traverse it either, so it is not followed.
            exists = Path.Exists(path);
            return null;
        }
    }
}
