namespace FileTransfer.Core;

public sealed partial class FileOperations
{
    /// <summary>
    /// One page of the files whose names start with the query's prefix, in <see cref="NameOrder"/>.
    /// Refuses (<see cref="ErrorReason.InvalidPageRequest"/>) a negative page size or a token not
    /// issued for this prefix. A page may hold fewer files than asked for while a token follows
    /// (the backend bounds the work one page may cost); the last page has no token.
    /// </summary>
    public async ValueTask<FilePage> ListAsync(ListQuery query, CancellationToken cancellationToken)
    {
        var prefix = query.Prefix ?? "";
        var pageSize = query.EffectivePageSize ?? throw Failures.InvalidPage("The page size must not be negative.");
        var cursor = string.IsNullOrEmpty(query.PageToken) ? null : PageToken.Decode(query.PageToken, prefix);
        var page = await backend.ListAsync(new ListRequest(prefix, cursor, pageSize, ListQuery.MaxNameBytesPerPage), cancellationToken);
        return new FilePage(
            [.. page.Objects.Select(Describe)],
            page.NextCursor is { } next ? PageToken.Encode(prefix, next) : null);
    }
}
