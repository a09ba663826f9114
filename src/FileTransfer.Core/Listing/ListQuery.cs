namespace FileTransfer.Core;

/// <summary>One page of a listing, as REST (<c>?prefix=&amp;pageSize=&amp;pageToken=</c>) and gRPC (<c>ListFilesRequest</c>) ask for it.</summary>
/// <param name="Prefix">Only names starting with this (ordinal); null or empty for every file.</param>
/// <param name="PageSize">Most files in the page: 0 means <see cref="DefaultPageSize"/>; capped at <see cref="MaxPageSize"/>.</param>
/// <param name="PageToken">The previous page's <see cref="FilePage.NextPageToken"/>, for the same prefix.</param>
public sealed record ListQuery(string? Prefix, int PageSize = 0, string? PageToken = null)
{
    public const int DefaultPageSize = 1_000;
    public const int MaxPageSize = 10_000;

    /// <summary>Total name bytes in one page, so that a page of long names stays far below gRPC's 4 MiB message limit.</summary>
    public const int MaxNameBytesPerPage = 1024 * 1024;

    /// <summary>The page size in effect, or null when it is negative (refused).</summary>
    public int? EffectivePageSize => PageSize switch
    {
        < 0 => null,
        0 => DefaultPageSize,
        _ => Math.Min(PageSize, MaxPageSize),
    };
}

/// <summary>Files in name order (<see cref="NameOrder"/>), and the token for the rest (null on the last page).</summary>
public sealed record FilePage(IReadOnlyList<FileVersion> Files, string? NextPageToken);
