using System.IO.Enumeration;

namespace FileTransfer.Server.Storage;

/// <summary>Looks up and lists the client-visible files under the root.</summary>
internal sealed class FileCatalog(StorageRoot root, StoragePathResolver resolver, ContentTypes contentTypes)
{
    private static readonly EnumerationOptions Recursive = new()
    {
        RecurseSubdirectories = true,
        IgnoreInaccessible = true,
        AttributesToSkip = FileAttributes.None,
    };

    /// <summary>The file at <paramref name="path"/>, or null when there is none (or it is a folder).</summary>
    public StoredFile? Find(StoragePath path)
    {
        var info = new FileInfo(path.FullPath);
        return info.Exists ? Describe(path.Name, info) : null;
    }

    /// <summary>Every client-visible file whose name starts with <paramref name="prefix"/>, in name order.</summary>
    public IEnumerable<StoredFile> List(string? prefix = null)
    {
        var files = new List<StoredFile>();
        foreach (var fullPath in ClientFolderFiles())
        {
            // Apply the same rules as a request would: reserved names, links leaving the root.
            var name = resolver.RelativeNameOf(fullPath);
            if (name is null
                || (prefix is not null && !name.StartsWith(prefix, StringComparison.Ordinal))
                || !resolver.TryResolve(name, out var path, out _))
            {
                continue;
            }

            var info = new FileInfo(path.FullPath);
            if (info.Exists)
            {
                files.Add(Describe(name, info));
            }
        }

        files.Sort((a, b) => string.CompareOrdinal(a.Name, b.Name));
        return files;
    }

    // Files below the root, without descending into the server's reserved folders: the digest
    // sidecars under .ft-meta mirror every file and would double the walk for nothing.
    private FileSystemEnumerable<string> ClientFolderFiles() =>
        new(root.FullPath, (ref FileSystemEntry entry) => entry.ToFullPath(), Recursive)
        {
            ShouldIncludePredicate = (ref FileSystemEntry entry) => !entry.IsDirectory,
            ShouldRecursePredicate = (ref FileSystemEntry entry) =>
                !entry.FileName.StartsWith(StoragePathResolver.ReservedPrefix, StringComparison.OrdinalIgnoreCase),
        };

    private StoredFile Describe(string name, FileInfo info)
    {
        // Stat through links so size and time describe the bytes a download will send.
        var target = info.LinkTarget is null ? info : (FileInfo?)info.ResolveLinkTarget(returnFinalTarget: true) ?? info;
        var lastModified = new DateTimeOffset(target.LastWriteTimeUtc);
        return new StoredFile(
            name,
            info.FullName,
            target.Length,
            contentTypes.For(name),
            lastModified,
            EntityTags.For(target.Length, lastModified));
    }
}
