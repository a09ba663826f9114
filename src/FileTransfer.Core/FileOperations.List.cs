namespace FileTransfer.Core;

public sealed partial class FileOperations
{
    /// <summary>
    /// One page of the files whose names start with the query's prefix that <paramref name="caller"/>
    /// may read, in <see cref="NameOrder"/>. A caller limited to folders sees only what lies below
    /// them: listing a prefix above its folders lists each folder in turn (in name order, so the
    /// whole listing stays in name order), and nothing beside them. Refuses
    /// (<see cref="ErrorReason.InvalidPageRequest"/>) a negative page size or a token not issued for
    /// this prefix. A page may hold fewer files than asked for while a token follows (the backend
    /// bounds the work one page may cost); the last page has no token.
    /// </summary>
    public async ValueTask<FilePage> ListAsync(Caller caller, ListQuery query, CancellationToken cancellationToken)
    {
        var prefix = query.Prefix ?? "";
        var pageSize = query.EffectivePageSize ?? throw Failures.InvalidPage("The page size must not be negative.");
        var scopes = AccessPolicy.ListingScopes(caller, prefix);
        var (scope, cursor) = string.IsNullOrEmpty(query.PageToken) ? (0, null) : Resume(scopes, PageToken.Decode(query.PageToken, prefix));
        var files = new List<FileVersion>();
        string? next = null;
        while (true)
        {
            var page = await backend.ListAsync(new ListRequest(scopes[scope], cursor, pageSize - files.Count, ListQuery.MaxNameBytesPerPage), cancellationToken);
            files.AddRange(page.Objects.Select(Describe));
            if (page.NextCursor is { } more)
            {
                next = PageToken.Encode(prefix, Cursor(scopes, scope, more));
                break;
            }

            if (++scope == scopes.Count)
            {
                break;
            }

            cursor = null;
            if (files.Count == pageSize)
            {
                // The next folder starts the next page.
                next = PageToken.Encode(prefix, Cursor(scopes, scope, ""));
                break;
            }
        }

        return new FilePage(files, next);
    }

    // One scope: the backend's cursor as it is. Several folders: the folder, a NUL (never in a name),
    // then the backend's cursor in it ("" for its start).
    private static string Cursor(IReadOnlyList<string> scopes, int scope, string cursor) =>
        scopes.Count == 1 ? cursor : scopes[scope] + "\0" + cursor;

    private static (int Scope, string? Cursor) Resume(IReadOnlyList<string> scopes, string cursor)
    {
        if (scopes.Count == 1)
        {
            return (0, cursor);
        }

        var separator = cursor.IndexOf('\0', StringComparison.Ordinal);
        var scope = separator < 0 ? -1 : IndexOf(scopes, cursor[..separator]);
        return scope < 0
            ? throw Failures.InvalidPage("The page token was issued for other folders; list again from the first page.")
            : (scope, cursor[(separator + 1)..] is { Length: > 0 } inner ? inner : null);
    }

    private static int IndexOf(IReadOnlyList<string> scopes, string folder)
    {
        for (var i = 0; i < scopes.Count; i++)
        {
            if (scopes[i] == folder)
            {
                return i;
            }
        }

        return -1;
    }
}
