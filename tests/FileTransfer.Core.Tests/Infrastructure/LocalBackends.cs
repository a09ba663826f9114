using FileTransfer.Storage.Local;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core.Tests.Infrastructure;

/// <summary>The local-disk backend over a folder, built as its registration builds it, without a host.</summary>
internal static class LocalBackends
{
    public static LocalStorageBackend Create(string rootPath, OpenFileCache? openFiles = null) => CreateWithSessions(rootPath, openFiles).Backend;

    /// <summary>The backend and its upload-session store over the same root; reads through <paramref name="openFiles"/> when given (a test watches it).</summary>
    public static (LocalStorageBackend Backend, LocalUploadSessionStore Sessions) CreateWithSessions(string rootPath, OpenFileCache? openFiles = null)
    {
        var root = new LocalRoot(rootPath);
        var paths = new LocalPaths(root);
        var backend = new LocalStorageBackend(
            root,
            paths,
            new DigestSidecars(root, NullLogger<DigestSidecars>.Instance),
            openFiles ?? new OpenFileCache(Options.Create(new LocalStorageOptions()), TimeProvider.System),
            new NameLocks(),
            NullLogger<LocalStorageBackend>.Instance);
        return (backend, new LocalUploadSessionStore(root, paths, backend));
    }

    /// <summary>The quota records of the local disk over <paramref name="rootPath"/>.</summary>
    public static IQuotaStore QuotaStore(string rootPath) => new LocalQuotaStore(new LocalRoot(rootPath));
}
