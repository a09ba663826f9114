using FileTransfer.Core.Tests.Contract;
using FileTransfer.Core.Tests.Infrastructure;
using FileTransfer.Storage.Local;

namespace FileTransfer.Core.Tests.Local;

/// <summary>The session store contract suite against the local disk, over a fresh temporary folder.</summary>
public sealed class LocalUploadSessionStoreContractTests : UploadSessionStoreContract
{
    private readonly TempFolder _root = new();

    protected override ValueTask<(IStorageBackend Backend, IUploadSessionStore Store)> CreateAsync()
    {
        var (backend, store) = LocalBackends.CreateWithSessions(_root.Path);
        return ValueTask.FromResult<(IStorageBackend, IUploadSessionStore)>((backend, store));
    }

    protected override IUploadSessionStore OpenAgain() => LocalBackends.CreateWithSessions(_root.Path).Sessions;

    protected override ValueTask DeleteAsync()
    {
        _root.Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>No bytes file, no record, no lock; the folders a session created are gone too.</summary>
    protected override Task AssertHoldsNothingAsync()
    {
        Assert.Equal([LocalUploadSessionStore.FolderName], _root.Entries());
        return Task.CompletedTask;
    }
}
