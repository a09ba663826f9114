namespace FileTransfer.Core;

/// <summary>
/// The conditions a client can put on a write, delete or download, checked against the current
/// version: REST sends them as <c>If-None-Match: *</c> / <c>If-Match</c>, gRPC as
/// <c>overwrite = false</c> / <c>if_match</c>. A write checks them when it begins and again, atomically
/// with the replace, when it commits; a delete atomically with the removal.
/// </summary>
/// <param name="MustNotExist">Refuse when the file exists (REST <c>If-None-Match: *</c>, gRPC <c>overwrite = false</c>).</param>
/// <param name="IfMatch">
/// Go ahead only when the current ETag is one of these. <c>*</c> matches any existing version, as in
/// HTTP (RFC 9110 13.1.1); a missing file matches nothing, not even <c>*</c>.
/// </param>
public sealed record Preconditions(bool MustNotExist = false, IReadOnlyList<string>? IfMatch = null)
{
    public static readonly Preconditions None = new();

    /// <summary>Only when the current version has this ETag (an empty text is "no condition", as proto3 sends it).</summary>
    public static Preconditions IfMatches(string? etag) => string.IsNullOrEmpty(etag) ? None : new(IfMatch: [etag]);

    public bool IsNone => !MustNotExist && IfMatch is not { Count: > 0 };

    /// <summary>Throws the <see cref="FileTransferException"/> a failed condition means; nothing when they hold.</summary>
    public void Check(string name, StoredObject? existing)
    {
        // RFC 9110 13.1.2: If-None-Match: * fails when any current representation exists.
        if (MustNotExist && existing is not null)
        {
            throw Failures.Exists(name);
        }

        // RFC 9110 13.1.1: a missing file matches no tag, not even "*".
        if (IfMatch is { Count: > 0 } tags && (existing is null || !tags.Any(tag => EntityTags.Matches(tag, existing.ETag))))
        {
            throw Failures.EtagMismatch(name);
        }
    }
}
