namespace FileTransfer.Server.Storage;

/// <summary>Looks up, opens and lists the client-visible files under the root, for both protocols.</summary>
internal sealed class FileCatalog(StorageRoot root, ContentTypes contentTypes)
{
    // The root as the OS sees it once every link is followed, as the resolver compares it.
    private readonly string _canonicalRoot = root.CanonicalFullPath ?? root.FullPath;

    /// <summary>The file at <paramref name="path"/>, or null when there is none (or it is a folder).</summary>
    public StoredFile? Find(StoragePath path) => Describe(path.Name, path.FullPath);

    /// <summary>
    /// Opens the file at <paramref name="path"/> for a download, described from the open handle so
    /// that name, size, time and ETag are those of the bytes that will be read; null when there is
    /// no such file (or it is a folder).
    /// </summary>
    public OpenedFile? Open(StoragePath path, out StoredFile? file)
    {
        file = null;
        OpenedFile opened;
        try
        {
            opened = OpenedFile.Open(path.FullPath, path.Name);
        }
        catch (Exception ex) when (ex is FileNotFoundException or DirectoryNotFoundException
                                   || (ex is UnauthorizedAccessException && Directory.Exists(path.FullPath)))
        {
            return null; // missing, or a folder (which the OS refuses to open as a file)
        }

        file = Describe(path.Name, path.FullPath, opened.Length, new DateTimeOffset(opened.LastWriteTimeUtc));
        return opened;
    }

    /// <summary>
    /// One page of the files whose names start with the query's prefix, in ordinal name order
    /// (see <see cref="FileTreeWalk"/>). Throws <see cref="InvalidListQueryException"/> for a
    /// negative page size or a token not issued for this prefix.
    /// </summary>
    public FilePage List(ListQuery query, CancellationToken cancellationToken)
    {
        var prefix = query.Prefix ?? "";
        var pageSize = query.EffectivePageSize ?? throw new InvalidListQueryException("The page size must not be negative.");
        var cursor = string.IsNullOrEmpty(query.PageToken) ? null : PageToken.Decode(query.PageToken, prefix);
        return new FileTreeWalk(_canonicalRoot, prefix, cursor, pageSize, Describe, cancellationToken).Run(root.FullPath);
    }

    private StoredFile? Describe(string name, string fullPath)
    {
        var info = new FileInfo(fullPath);
        if (!info.Exists)
        {
            return null;
        }

        // Stat through links so size and time describe the bytes a download will send.
        var target = info.LinkTarget is null ? info : (FileInfo?)info.ResolveLinkTarget(returnFinalTarget: true) ?? info;
        if (!target.Exists)
        {
            return null;
        }

        return Describe(name, info.FullName, target.Length, new DateTimeOffset(target.LastWriteTimeUtc));
    }

    /// <summary>
    /// A file of this size and time as both protocols describe it: the type from the name's
    /// extension and the strong ETag from size and time (<see cref="EntityTags"/>), derived here only.
    /// </summary>
    public StoredFile Describe(string name, string fullPath, long size, DateTimeOffset lastModified) =>
        new(name, fullPath, size, contentTypes.For(name), lastModified, EntityTags.For(size, lastModified));
}
