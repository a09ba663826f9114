using System.Buffers;
using System.Text;

namespace FileTransfer.Core;

/// <summary>
/// The rules every client-supplied file name must pass, on every protocol and every backend: text
/// only, no storage access. A backend may refuse a name these rules accept for a reason of its
/// medium (the local disk: a link that leads out of the root), never the other way round: a
/// listing shows only names that pass (<see cref="IsValid"/>).
/// </summary>
public static class FileNames
{
    /// <summary>Longest name in UTF-8 bytes, the common PATH_MAX budget left for the root.</summary>
    public const int MaxNameBytes = 1024;

    /// <summary>Longest segment in UTF-8 bytes (NAME_MAX on Linux file systems).</summary>
    public const int MaxSegmentBytes = 255;

    /// <summary>Prefix of the server's own entries (uploads in progress, digests, sessions); clients can neither name nor list them.</summary>
    public const string ReservedPrefix = ".ft-";

    // Characters whose NFKC form holds a separator: U+FF0F FULLWIDTH SOLIDUS, U+FF3C FULLWIDTH and
    // U+FE68 SMALL REVERSE SOLIDUS, and the letterlike U+2100 a/c, U+2101 a/s, U+2105 c/o, U+2106 c/u.
    private static readonly SearchValues<char> CompatibilitySeparators = SearchValues.Create("\uFF0F\uFF3C\uFE68\u2100\u2101\u2105\u2106");

    /// <summary>True when <paramref name="name"/> passes every rule.</summary>
    public static bool IsValid(string? name) => Check(name) is null;

    /// <summary>The name itself, or throws the <see cref="FileTransferException"/> (<see cref="ErrorReason.InvalidFileName"/>) that refuses it.</summary>
    public static string Validate(string? name) =>
        Check(name) is { } rejection ? throw Failures.InvalidName(rejection) : name!;

    /// <summary>Why <paramref name="name"/> is refused, or null when its spelling is acceptable.</summary>
    public static NameRejection? Check(string? name)
    {
        if (string.IsNullOrEmpty(name))
        {
            return NameRejection.Empty;
        }

        if (!IsWellFormedUtf16(name))
        {
            return NameRejection.InvalidUnicode;
        }

        if (Encoding.UTF8.GetByteCount(name) > MaxNameBytes)
        {
            return NameRejection.TooLong;
        }

        if (name.Contains('\\'))
        {
            return NameRejection.Backslash;
        }

        if (HasControl(name))
        {
            return NameRejection.ControlCharacter;
        }

        if (name[0] == '/' || HasDriveLetter(name))
        {
            return NameRejection.Absolute;
        }

        // Segment by segment, as spans of the name: every request checks its name (a small GET twice),
        // and splitting it allocated an array and a string per segment.
        var rest = name.AsSpan();
        while (true)
        {
            var separator = rest.IndexOf('/');
            var problem = CheckSegment(separator < 0 ? rest : rest[..separator]);
            if (problem is not null || separator < 0)
            {
                return problem;
            }

            rest = rest[(separator + 1)..];
        }
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

    private static NameRejection? CheckSegment(ReadOnlySpan<char> segment)
    {
        if (segment.Length == 0)
        {
            return NameRejection.EmptySegment;
        }

        if (segment is "." or "..")
        {
            return NameRejection.DotSegment;
        }

        if (Encoding.UTF8.GetByteCount(segment) > MaxSegmentBytes)
        {
            return NameRejection.SegmentTooLong;
        }

        if (BecomesTraversalOnceNormalised(segment))
        {
            return NameRejection.CompatibilityTraversal;
        }

        if (segment.StartsWith(ReservedPrefix, StringComparison.OrdinalIgnoreCase))
        {
            return NameRejection.Reserved;
        }

        if (OperatingSystem.IsWindows() && IsUnsafeOnWindows(segment.ToString()))
        {
            return NameRejection.WindowsName;
        }

        // The transport decoded the name once; an escape that is still here was encoded twice,
        // the classic way to smuggle "../" past a filter ("%252e%252e").
        return HasPercentEscape(segment) ? NameRejection.PercentEncoded : null;
    }

    /// <summary>
    /// True when Unicode compatibility normalisation (NFKC, UAX #15) turns <paramref name="segment"/>
    /// into a separator or a dot segment: a client, proxy or file system that normalises names would
    /// read "\uFF0E\uFF0E" as "..", "a\uFF0Fb" as "a/b" and "\uFF3C" as "\\". The name is kept as
    /// sent, so the server itself is never fooled; it refuses such names so that nobody downstream is.
    /// </summary>
    /// <remarks>
    /// The process runs with invariant globalization, where string.Normalize does not normalise, so
    /// the characters are listed. NFKC never deletes a character and neither '.', '/' nor '\' composes
    /// with anything, so a segment's NFKC form holds a separator exactly when one of its characters'
    /// does, and is "." or ".." exactly when it consists of dots and those characters. Complete for
    /// Unicode 17 (every code point whose NFKC form contains '.', '/' or '\', listed with ICU 78).
    /// </remarks>
    private static bool BecomesTraversalOnceNormalised(ReadOnlySpan<char> segment)
    {
        if (Ascii.IsValid(segment))
        {
            return false; // ASCII is its own NFKC form.
        }

        if (segment.ContainsAny(CompatibilitySeparators))
        {
            return true;
        }

        var dots = 0;
        foreach (var c in segment)
        {
            dots += c switch
            {
                '.' or '\u2024' or '\uFE52' or '\uFF0E' => 1, // full stop, one dot leader, small and fullwidth full stops
                '\u2025' or '\uFE30' => 2, // two dot leader and its vertical presentation form
                '\u2026' or '\uFE19' => 3, // ellipsis and its vertical form: "..." is an ordinary name
                _ => 3, // anything else: the segment is not dots alone
            };
            if (dots > 2)
            {
                return false;
            }
        }

        return true; // one or two dots once normalised (the segment is not empty)
    }

    // C0, DEL, C1, the Unicode line separators, and the bidirectional embedding, override and
    // isolate controls (U+202A-U+202E, U+2066-U+2069) that make "invoice\u202Efdp.exe" display
    // as "invoiceexe.pdf" (Unicode TR #36 2.1, CVE-2021-42574). Joiners stay: emoji need them.
    private static bool HasControl(string name)
    {
        foreach (var c in name)
        {
            if (IsControl(c))
            {
                return true;
            }
        }

        return false;
    }

    private static bool IsControl(char c) =>
        char.IsControl(c) || c is '\u2028' or '\u2029' or (>= '\u202A' and <= '\u202E') or (>= '\u2066' and <= '\u2069');

    // "C:", "C:/x": a drive-relative or absolute Windows path.
    private static bool HasDriveLetter(string name) => name.Length >= 2 && name[1] == ':' && char.IsAsciiLetter(name[0]);

    private static bool HasPercentEscape(ReadOnlySpan<char> segment)
    {
        for (var i = 0; i + 2 < segment.Length; i++)
        {
            if (segment[i] == '%' && char.IsAsciiHexDigit(segment[i + 1]) && char.IsAsciiHexDigit(segment[i + 2]))
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
