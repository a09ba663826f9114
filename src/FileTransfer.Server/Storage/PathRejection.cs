namespace FileTransfer.Server.Storage;

/// <summary>Why a client-supplied name was refused. The text is safe to show: it never contains server paths.</summary>
internal sealed record PathRejection(string Reason)
{
    public static readonly PathRejection Empty = new("The file name is empty.");
    public static readonly PathRejection TooLong = new($"The file name is longer than {StoragePathResolver.MaxNameBytes} bytes.");
    public static readonly PathRejection SegmentTooLong = new($"A path segment is longer than {StoragePathResolver.MaxSegmentBytes} bytes.");
    public static readonly PathRejection Absolute = new("The file name must be relative to the storage root.");
    public static readonly PathRejection Backslash = new("The file name must use '/' as separator, not '\\'.");
    public static readonly PathRejection ControlCharacter = new("The file name contains a control or bidirectional-override character.");
    public static readonly PathRejection EmptySegment = new("The file name contains an empty segment ('//' or a trailing '/').");
    public static readonly PathRejection DotSegment = new("The file name contains a '.' or '..' segment.");
    public static readonly PathRejection CompatibilityTraversal = new("The file name contains a character that Unicode compatibility normalisation (NFKC) turns into '/', '\\' or a '.' or '..' segment, such as U+FF0F or U+FF0E.");
    public static readonly PathRejection PercentEncoded = new("The file name still contains percent-encoding after decoding; encode names once.");
    public static readonly PathRejection Reserved = new($"Names starting with '{StoragePathResolver.ReservedPrefix}' are reserved for the server.");
    public static readonly PathRejection InvalidUnicode = new("The file name is not valid Unicode.");
    public static readonly PathRejection OutsideRoot = new("The file name leads outside the storage root.");
    public static readonly PathRejection UnresolvableLink = new("The file name passes through a symbolic link that cannot be resolved (a loop, or too many links).");
    public static readonly PathRejection WindowsName = new("The file name contains a part Windows does not store as written (a device name such as CON, a ':', or a trailing '.' or space).");
}
