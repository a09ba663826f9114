using System.Text;

namespace FileTransfer.Server.Storage;

/// <summary>
/// The rules a name must pass before it is ever joined to the root: text only, no file system
/// access. <see cref="StoragePathResolver"/> applies them, then checks where links lead.
/// </summary>
internal static class PathSyntax
{
    /// <summary>Why <paramref name="name"/> is refused, or null when its spelling is acceptable.</summary>
    public static PathRejection? Check(string? name)
    {
        if (string.IsNullOrEmpty(name))
        {
            return PathRejection.Empty;
        }

        if (!IsWellFormedUtf16(name))
        {
            return PathRejection.InvalidUnicode;
        }

        if (Encoding.UTF8.GetByteCount(name) > StoragePathResolver.MaxNameBytes)
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

    /// <summary>
    /// Names Win32 does not store as written: device names (CON, NUL, COM1...) in any folder and
    /// with any extension, ':' (alternate data streams, "a.txt::$DATA"), and a trailing '.' or
    /// space, which Win32 strips so that "x.txt." opens "x.txt". Enforced on Windows only: on
    /// Linux these are ordinary names.
    /// </summary>
    public static bool IsUnsafeOnWindows(string segment)
    {
        if (segment.Contains(':') || segment.EndsWith('.') || segment.EndsWith(' '))
        {
            return true;
        }

        var stem = segment.Split('.')[0].TrimEnd(' ').ToUpperInvariant();
        return stem is "CON" or "PRN" or "AUX" or "NUL" or "CONIN$" or "CONOUT$"
            || (stem.Length == 4 && (stem.StartsWith("COM", StringComparison.Ordinal) || stem.StartsWith("LPT", StringComparison.Ordinal))
                && (char.IsAsciiDigit(stem[3]) || stem[3] is '¹' or '²' or '³'));
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

        if (Encoding.UTF8.GetByteCount(segment) > StoragePathResolver.MaxSegmentBytes)
        {
            return PathRejection.SegmentTooLong;
        }

        if (segment.StartsWith(StoragePathResolver.ReservedPrefix, StringComparison.OrdinalIgnoreCase))
        {
            return PathRejection.Reserved;
        }

        if (OperatingSystem.IsWindows() && IsUnsafeOnWindows(segment))
        {
            return PathRejection.WindowsName;
        }

        // The transport decoded the name once; an escape that is still here was encoded twice,
        // the classic way to smuggle "../" past a filter ("%252e%252e").
        return HasPercentEscape(segment) ? PathRejection.PercentEncoded : null;
    }

    // C0, DEL, C1, the Unicode line separators, and the bidirectional embedding, override and
    // isolate controls (U+202A-U+202E, U+2066-U+2069) that make "invoice\u202Efdp.exe" display
    // as "invoiceexe.pdf" (Unicode TR #36 2.1, CVE-2021-42574). Joiners stay: emoji need them.
    private static bool IsControl(char c) =>
        char.IsControl(c) || c is '\u2028' or '\u2029' or (>= '\u202A' and <= '\u202E') or (>= '\u2066' and <= '\u2069');

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
