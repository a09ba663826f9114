namespace FileTransfer.Core;

/// <summary>
/// Comparing the entity tags both protocols carry: REST in <c>If-Match</c>, gRPC in <c>if_match</c>.
/// Backends make them (<see cref="StoredObject.ETag"/>); this decides whether a condition holds.
/// </summary>
public static class EntityTags
{
    /// <summary>The <c>*</c> that matches any current representation (RFC 9110 13.1.1).</summary>
    public const string Any = "*";

    /// <summary>
    /// RFC 9110 13.1.1: If-Match uses the strong comparison, so a weak tag (<c>W/"..."</c>) never
    /// matches, and <c>*</c> matches whatever exists.
    /// </summary>
    public static bool Matches(string condition, string current) =>
        condition == Any || (!condition.StartsWith("W/", StringComparison.Ordinal) && string.Equals(condition, current, StringComparison.Ordinal));
}
