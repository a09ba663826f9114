namespace FileTransfer.Core;

/// <summary>Why a client-supplied name was refused. The text is safe to show: it never contains server paths.</summary>
public sealed record NameRejection(string Reason)
{
    public static readonly NameRejection Empty = new("The file name is empty.");
    public static readonly NameRejection TooLong = new($"The file name is longer than {FileNames.MaxNameBytes} bytes.");
    public static readonly NameRejection SegmentTooLong = new($"A path segment is longer than {FileNames.MaxSegmentBytes} bytes.");
    public static readonly NameRejection Absolute = new("The file name must be relative to the storage root.");
    public static readonly NameRejection Backslash = new("The file name must use '/' as separator, not '\\'.");
    public static readonly NameRejection ControlCharacter = new("The file name contains a control or bidirectional-override character.");
    public static readonly NameRejection EmptySegment = new("The file name contains an empty segment ('//' or a trailing '/').");
    public static readonly NameRejection DotSegment = new("The file name contains a '.' or '..' segment.");
    public static readonly NameRejection CompatibilityTraversal = new("The file name contains a character that Unicode compatibility normalisation (NFKC) turns into '/', '\\' or a '.' or '..' segment, such as U+FF0F or U+FF0E.");
    public static readonly NameRejection PercentEncoded = new("The file name still contains percent-encoding after decoding; encode names once.");
    public static readonly NameRejection Reserved = new($"Names starting with '{FileNames.ReservedPrefix}' are reserved for the server.");
    public static readonly NameRejection InvalidUnicode = new("The file name is not valid Unicode.");
    public static readonly NameRejection OutsideRoot = new("The file name leads outside the storage root.");
    public static readonly NameRejection UnresolvableLink = new("The file name passes through a symbolic link that cannot be resolved (a loop, or too many links).");
    public static readonly NameRejection WindowsName = new("The file name contains a part Windows does not store as written (a device name such as CON, a ':', or a trailing '.' or space).");
}
