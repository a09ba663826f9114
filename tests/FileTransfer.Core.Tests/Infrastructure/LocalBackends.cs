using FileTransfer.Storage.Local;
using Microsoft.Extensions.Logging.Abstractions;

namespace FileTransfer.Core.Tests.Infrastructure;

/// <summary>The local-disk backend over a folder, built as its registration builds it, without a host.</summary>
internal static class LocalBackends
{
    public static LocalStorageBackend Create(string rootPath)
    {
        var root = new LocalRoot(rootPath);
        return new LocalStorageBackend(
            root,
            new LocalPaths(root),
            new DigestSidecars(root, NullLogger<DigestSidecars>.Instance),
            new NameLocks(),
            NullLogger<LocalStorageBackend>.Instance);
    }
}
