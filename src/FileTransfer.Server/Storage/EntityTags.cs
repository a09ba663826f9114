namespace FileTransfer.Server.Storage;

/// <summary>
/// Strong validators from size and modification time, as nginx and Apache derive them, in the
/// quoted form both protocols carry: REST in <c>ETag</c>/<c>If-Match</c>, gRPC in
/// <c>FileMetadata.etag</c>/<c>if_match</c>. RFC 9110 8.8.3: a strong ETag must change whenever the
/// bytes change; every replace through this server is a new file with a new, strictly later
/// modification time, so that holds.
/// </summary>
internal static class EntityTags
{
    /// <summary>The <c>*</c> that matches any current representation (RFC 9110 13.1.1).</summary>
    public const string Any = "*";

    public static string For(long size, DateTimeOffset lastModified) =>
        $"\"{lastModified.UtcTicks:x}-{size:x}\"";

    /// <summary>
    /// RFC 9110 13.1.1: If-Match uses the strong comparison, so a weak tag (<c>W/"..."</c>) never
    /// matches, and <c>*</c> matches whatever exists.
    /// </summary>
    public static bool Matches(string condition, string current) =>
        condition == Any || (!condition.StartsWith("W/", StringComparison.Ordinal) && string.Equals(condition, current, StringComparison.Ordinal));
}
