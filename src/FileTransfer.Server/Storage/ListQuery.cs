namespace FileTransfer.Server.Storage;

/// <summary>One page of a listing, as REST (<c>?prefix=&amp;pageSize=&amp;pageToken=</c>) and gRPC (<c>ListFilesRequest</c>) ask for it.</summary>
/// <param name="Prefix">Only names starting with this (ordinal); null or empty for every file.</param>
/// <param name="PageSize">Most files in the page: 0 means <see cref="DefaultPageSize"/>; capped at <see cref="MaxPageSize"/>.</param>
/// <param name="PageToken">The previous page's <see cref="FilePage.NextPageToken"/>, for the same prefix.</param>
internal sealed record ListQuery(string? Prefix, int PageSize = 0, string? PageToken = null)
{
    public const int DefaultPageSize = 1_000;
    public const int MaxPageSize = 10_000;

    /// <summary>The page size in effect, or null when it is negative (refused).</summary>
    public int? EffectivePageSize => PageSize switch
    {
        < 0 => null,
        0 => DefaultPageSize,
        _ => Math.Min(PageSize, MaxPageSize),
    };
}

/// <summary>Files in ordinal name order, and the token for the rest (null on the last page).</summary>
internal sealed record FilePage(IReadOnlyList<StoredFile> Files, string? NextPageToken);

/// <summary>A listing request the client must fix: a negative page size, or a token that is not ours or not for this prefix.</summary>
internal sealed class InvalidListQueryException(string message) : Exception(message);
