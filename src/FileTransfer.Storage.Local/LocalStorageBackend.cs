using FileTransfer.Core;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Storage.Local;

/// <summary>
/// The embedded default backend: files in a folder of the local disk, named as clients name them.
/// Reads open one version through a handle; writes go to a hidden temporary file that is flushed and
/// renamed over the name under a per-name lock, so that a precondition is checked against exactly
/// the version replaced. Folder links are followed only where they stay inside the root.
/// </summary>
internal sealed partial class LocalStorageBackend(
    LocalRoot root,
    LocalPaths paths,
    DigestSidecars digests,
    OpenFileCache openFiles,
    NameLocks locks,
    ILogger<LocalStorageBackend> logger) : IStorageBackend, ILocalFolderBackend
{
    // The root with every link on the way to it followed: two spellings of one folder are one store.
    public string Location => root.CanonicalFullPath ?? root.FullPath;

    public ValueTask<bool> IsAvailableAsync(CancellationToken cancellationToken) =>
        ValueTask.FromResult(Directory.Exists(root.FullPath));

    public bool MayServe(string path) =>
        CanonicalPath.Resolve(Path.GetFullPath(path)) is not { } real || CanonicalPath.IsUnder(real, Location);
}
