using FileTransfer.Core;

namespace FileTransfer.Storage.Local;

internal sealed partial class LocalStorageBackend
{
    // The root as the OS sees it once every link is followed, as the resolver compares it.
    private string CanonicalRoot => root.CanonicalFullPath ?? root.FullPath;

    public ValueTask<StoredObject?> StatAsync(string name, CancellationToken cancellationToken) =>
        ValueTask.FromResult(Describe(name, paths.Resolve(name)));

    public ValueTask<IOpenedObject?> OpenAsync(string name, CancellationToken cancellationToken)
    {
        var fullPath = paths.Resolve(name, out var probed);
        return ValueTask.FromResult<IOpenedObject?>(openFiles.Open(name, fullPath, digests.Find, probed));
    }

    /// <summary>One page of the visible files in name order: see <see cref="FileTreeWalk"/>.</summary>
    public ValueTask<ObjectPage> ListAsync(ListRequest request, CancellationToken cancellationToken) =>
        ValueTask.FromResult(new FileTreeWalk(CanonicalRoot, request, Describe, cancellationToken).Run(root.FullPath));

    /// <summary>The file at <paramref name="fullPath"/> as it is now, or null when there is none (or it is a folder).</summary>
    private StoredObject? Describe(string name, string fullPath)
    {
        var info = new FileInfo(fullPath);
        if (!info.Exists)
        {
            return null;
        }

        // Stat through links so size and time describe the bytes a download would send.
        var target = info.LinkTarget is null ? info : (FileInfo?)info.ResolveLinkTarget(returnFinalTarget: true) ?? info;
        return target.Exists ? Describe(name, target.Length, target.LastWriteTimeUtc) : null;
    }

    // Without the digest: a stat or a listing entry must not cost a sidecar read per file (opens carry it).
    private static StoredObject Describe(string name, long size, DateTime lastWriteUtc)
    {
        var modified = new DateTimeOffset(lastWriteUtc);
        return new StoredObject(name, size, modified, LocalETags.For(size, modified));
    }
}
