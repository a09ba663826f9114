using System.IO.Enumeration;
using System.Text;
using FileTransfer.Core;

namespace FileTransfer.Storage.Local;

/// <summary>
/// Walks the client-visible files under the root in name order (<see cref="NameOrder"/>), one page
/// at a time. Each folder is read on its own and sorted, with folders keyed as "name/" so that the
/// walk order equals the order of full names ('/' sorts like any other character); subtrees outside the prefix, or wholly before
/// the cursor, are never opened. Bounded: each real folder is visited once, because folder links
/// are not followed (a folder reached through a link is listed under its real name; a request
/// through the link still reaches its files): a handful of sibling links would otherwise list every
/// file once per path through them, combinatorially many. Names past the length limit are not
/// descended into, and one page examines at most <see cref="MaxEntriesPerPage"/> entries before
/// it returns what it has with a cursor. The request's cancellation is checked at every entry.
/// </summary>
internal sealed class FileTreeWalk
{
    /// <summary>Entries one page may examine: a bound on the work one request can cause.</summary>
    public const int MaxEntriesPerPage = 200_000;

    private static readonly EnumerationOptions OneFolder = new()
    {
        RecurseSubdirectories = false,
        IgnoreInaccessible = true,
        AttributesToSkip = FileAttributes.None,
        ReturnSpecialDirectories = false,
    };

    private readonly string _canonicalRoot;
    private readonly string _prefix;
    private readonly int _pageSize;
    private readonly int _maxNameBytes;
    private readonly Func<string, string, StoredObject?> _describe;
    private readonly CancellationToken _cancellationToken;
    private readonly int _entryBudget;
    private readonly List<StoredObject> _found = [];
    private string? _cursor;
    private int _examined;
    private int _nameBytes;
    private bool _stopped;
    private bool _progressed;

    /// <param name="canonicalRoot">The root with every link resolved, as <see cref="CanonicalPath"/> gives it.</param>
    /// <param name="request">Prefix, the cursor to resume after (the last name or finished folder of the previous page), page size and name-byte budget.</param>
    /// <param name="describe">Describes a visible file from its name and full path (null when it vanished).</param>
    /// <param name="cancellationToken">The request's: a client that leaves stops the walk.</param>
    /// <param name="entryBudget">Entries this page may examine (<see cref="MaxEntriesPerPage"/>; smaller in tests).</param>
    public FileTreeWalk(string canonicalRoot, ListRequest request, Func<string, string, StoredObject?> describe, CancellationToken cancellationToken, int entryBudget = MaxEntriesPerPage)
    {
        _entryBudget = entryBudget;
        _canonicalRoot = canonicalRoot;
        _prefix = request.Prefix;
        _cursor = request.After;
        _pageSize = request.Limit;
        _maxNameBytes = request.MaxNameBytes;
        _describe = describe;
        _cancellationToken = cancellationToken;
    }

    /// <summary>Walks until the page is full (and one more file exists), the budget is spent, or the tree ends.</summary>
    public ObjectPage Run(string rootFullPath)
    {
        Visit(rootFullPath, _canonicalRoot, "", [_canonicalRoot]);
        return new ObjectPage(_found, _stopped ? _cursor : null);
    }

    private void Visit(string folder, string canonicalFolder, string folderName, HashSet<string> ancestors)
    {
        foreach (var entry in SortedEntries(folder, folderName))
        {
            _cancellationToken.ThrowIfCancellationRequested();
            if (_stopped)
            {
                return;
            }

            if (++_examined > _entryBudget && _progressed)
            {
                // Out of budget: the client resumes after the last entry finished. Only once this
                // page has moved the cursor, so that every page makes progress.
                _stopped = true;
                return;
            }

            var fullPath = Path.Join(folder, entry.FileName);
            if (entry.IsFolder)
            {
                VisitFolder(entry, fullPath, canonicalFolder, ancestors);
            }
            else
            {
                VisitFile(entry, fullPath, canonicalFolder);
            }
        }
    }

    private void VisitFolder(Entry entry, string fullPath, string canonicalFolder, HashSet<string> ancestors)
    {
        var key = entry.Key;
        if (!IsAfterCursor(key))
        {
            return;
        }

        if (!entry.IsLink && MayHoldMatches(key))
        {
            var canonical = CanonicalOf(entry, fullPath, canonicalFolder);
            // A folder already on the path (a bind mount of an ancestor) is a loop; one outside the root is not ours.
            if (canonical is not null && IsInsideRoot(canonical) && ancestors.Add(canonical))
            {
                Visit(fullPath, canonical, key, ancestors);
                ancestors.Remove(canonical);
            }
        }

        Advance(key); // every name under key is done
    }

    private void VisitFile(Entry entry, string fullPath, string canonicalFolder)
    {
        var name = entry.Key;
        if (!IsAfterCursor(name))
        {
            return;
        }

        if (IsVisible(entry, fullPath, canonicalFolder) is { } file)
        {
            if (_found.Count >= _pageSize || (_found.Count > 0 && _nameBytes + Encoding.UTF8.GetByteCount(name) > _maxNameBytes))
            {
                // One more visible file exists: the page is full and a next page is worth asking for.
                _stopped = true;
                return;
            }

            _found.Add(file);
            _nameBytes += Encoding.UTF8.GetByteCount(name);
        }

        Advance(name);
    }

    // The same rules a request for the name would apply: prefix, spelling, links staying inside the root.
    private StoredObject? IsVisible(Entry entry, string fullPath, string canonicalFolder)
    {
        if (!entry.Key.StartsWith(_prefix, StringComparison.Ordinal) || !FileNames.IsValid(entry.Key))
        {
            return null;
        }

        var canonical = CanonicalOf(entry, fullPath, canonicalFolder);
        return canonical is not null && IsInsideRoot(canonical) ? _describe(entry.Key, fullPath) : null;
    }

    private void Advance(string finished)
    {
        if (!_stopped)
        {
            _cursor = finished;
            _progressed = true;
        }
    }

    // Could a listed name lie under the folder "key" (ending in '/')?
    private bool MayHoldMatches(string key) =>
        (key.StartsWith(_prefix, StringComparison.Ordinal) || _prefix.StartsWith(key, StringComparison.Ordinal))
        && Encoding.UTF8.GetByteCount(key) <= FileNames.MaxNameBytes
        && FileNames.IsValid(key[..^1]);

    // Is anything at or under "key" still to come? The cursor is the last name finished; one
    // ending in '/' is a finished folder, so nothing under it comes again. A folder holding the
    // cursor is entered again to finish it; every other folder sorts wholly before or after it.
    private bool IsAfterCursor(string key)
    {
        if (_cursor is null)
        {
            return true;
        }

        if (key.EndsWith('/') && _cursor.StartsWith(key, StringComparison.Ordinal))
        {
            return _cursor != key;
        }

        return NameOrder.Compare(key, _cursor) > 0
            && !(_cursor.EndsWith('/') && key.StartsWith(_cursor, StringComparison.Ordinal));
    }

    private bool IsInsideRoot(string canonical) =>
        CanonicalPath.IsBelow(canonical, _canonicalRoot);

    // Where the OS lands: a plain entry is its folder's canonical path plus its name; a link is resolved in full.
    private static string? CanonicalOf(Entry entry, string fullPath, string canonicalFolder) =>
        entry.IsLink ? CanonicalPath.Resolve(fullPath) : Path.Join(canonicalFolder, entry.FileName);

    private List<Entry> SortedEntries(string folder, string folderName)
    {
        List<Entry> entries;
        try
        {
            entries = [.. new FileSystemEnumerable<Entry>(folder, (ref FileSystemEntry e) => Entry.From(ref e, folderName), OneFolder)];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return []; // vanished or unreadable: nothing a client could download from it either
        }

        entries.Sort(static (a, b) => NameOrder.Compare(a.Key, b.Key));
        return entries;
    }

    /// <param name="FileName">The entry's own name in its folder.</param>
    /// <param name="Key">The client-facing name; folders end in '/' so that they sort where their files do.</param>
    /// <param name="IsFolder">A folder, or a link to one.</param>
    /// <param name="IsLink">A symbolic link, resolved before it is trusted.</param>
    private readonly record struct Entry(string FileName, string Key, bool IsFolder, bool IsLink)
    {
        public static Entry From(ref FileSystemEntry entry, string folderName)
        {
            var fileName = entry.FileName.ToString();
            // IsDirectory follows a link to its target, so a link to a folder is walked as a folder.
            var isFolder = entry.IsDirectory;
            var isLink = (entry.Attributes & FileAttributes.ReparsePoint) != 0;
            return new Entry(fileName, folderName + fileName + (isFolder ? "/" : ""), isFolder, isLink);
        }
    }
}
