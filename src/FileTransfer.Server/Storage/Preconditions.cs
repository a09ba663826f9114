namespace FileTransfer.Server.Storage;

/// <summary>
/// The conditions a client can put on a write or delete, checked against the version on disk:
/// REST sends them as If-None-Match / If-Match, gRPC as <c>overwrite = false</c> / <c>if_match</c>.
/// Checked when a request arrives and again under the name's lock at commit.
/// </summary>
/// <param name="MustNotExist">Refuse when the file exists (REST <c>If-None-Match: *</c>, gRPC <c>overwrite = false</c>).</param>
/// <param name="IfMatch">Go ahead only when the current ETag is one of these; <c>*</c> matches any existing file.</param>
internal sealed record Preconditions(bool MustNotExist = false, IReadOnlyList<string>? IfMatch = null)
{
    public static readonly Preconditions None = new();

    /// <summary>Throws the <see cref="UploadException"/> a failed condition means; nothing when they hold.</summary>
    public void Check(string name, StoredFile? existing)
    {
        // RFC 9110 13.1.2: If-None-Match: * fails when any current representation exists.
        if (MustNotExist && existing is not null)
        {
            throw new UploadException(UploadError.AlreadyExists, $"'{name}' already exists.");
        }

        // RFC 9110 13.1.1: a missing file matches no tag, not even "*".
        if (IfMatch is { Count: > 0 } tags && (existing is null || !tags.Any(tag => EntityTags.Matches(tag, existing.ETag))))
        {
            throw new UploadException(UploadError.PreconditionFailed, $"'{name}' does not match the ETag the client holds.");
        }
    }
}
