using System.Diagnostics.CodeAnalysis;
using System.Text;

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
        rejection = CheckSyntax(name);
        if (rejection is not null)
        {
            return false;
        }

        var segments = name!.Split('/');
        var fullPath = Path.GetFullPath(Path.Join([root.FullPath, .. segments]));

        // Following symbolic links must not leave the root either: compare what the OS will open.
        if (!root.Contains(fullPath) || !root.Contains(CanonicalPath.Resolve(fullPath)))
        {
            rejection = PathRejection.OutsideRoot;
            return false;
        }

        // The name is kept exactly as sent (no Unicode normalisation) so that it round-trips.
        path = new StoragePath(name, fullPath);
        return true;
    }

    /// <summary>Names for files found on disk, '/' separated, or null when the file is not client-visible.</summary>
    public string? NameOf(string fullPath)
    {
        if (!root.Contains(fullPath) || fullPath.Length == root.FullPath.Length)
        {
            return null;
        }

        var name = fullPath[(root.FullPath.Length + 1)..].Replace(Path.DirectorySeparatorChar, '/');
        return CheckSyntax(name) is null ? name : null;
    }

    private static PathRejection? CheckSyntax(string? name)
    {
        if (string.IsNullOrEmpty(name))
        {
            return PathRejection.Empty;
        }

        if (!IsWellFormedUtf16(name))
        {
            return PathRejection.InvalidUnicode;
        }

        if (Encoding.UTF8.GetByteCount(name) > MaxNameBytes)
        {
            return PathRejection.TooLong;
        }

        if (name.Contains('\\'))
        {
            return PathRejection.Backslash;
        }

        if (name.Any(IsControl))
        {
            return PathRejection.ControlCharacter;
        }

        if (name[0] == '/' || HasDriveLetter(name))
        {
            return PathRejection.Absolute;
        }

        foreach (var segment in name.Split('/'))
        {
            var problem = CheckSegment(segment);
            if (problem is not null)
            {
                return problem;
            }
        }

        return null;
    }

    private static PathRejection? CheckSegment(string segment)
    {
        if (segment.Length == 0)
        {
            return PathRejection.EmptySegment;
        }

        if (segment is "." or "..")
        {
            return PathRejection.DotSegment;
        }

        if (Encoding.UTF8.GetByteCount(segment) > MaxSegmentBytes)
        {
            return PathRejection.SegmentTooLong;
        }

        if (segment.StartsWith(ReservedPrefix, StringComparison.OrdinalIgnoreCase))
        {
            return PathRejection.Reserved;
        }

        // The transport decoded the name once; an escape that is still here was encoded twice,
        // the classic way to smuggle "../" past a filter ("%252e%252e").
        return HasPercentEscape(segment) ? PathRejection.PercentEncoded : null;
    }

    private static bool IsControl(char c) => char.IsControl(c) || c is '\u2028' or '\u2029';

    // "C:", "C:/x": a drive-relative or absolute Windows path.
    private static bool HasDriveLetter(string name) => name.Length >= 2 && name[1] == ':' && char.IsAsciiLetter(name[0]);

    private static bool HasPercentEscape(string segment)
    {
        for (var i = segment.IndexOf('%'); i >= 0 && i + 2 < segment.Length; i = segment.IndexOf('%', i + 1))
        {
            if (char.IsAsciiHexDigit(segment[i + 1]) && char.IsAsciiHexDigit(segment[i + 2]))
            {
                return true;
            }
        }

        return false;
    }

    private static bool IsWellFormedUtf16(string value)
    {
        for (var i = 0; i < value.Length; i++)
        {
            if (char.IsHighSurrogate(value[i]) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]))
            {
                i++;
            }
            else if (char.IsSurrogate(value[i]))
            {
                return false;
            }
        }

        return true;
    }
}
