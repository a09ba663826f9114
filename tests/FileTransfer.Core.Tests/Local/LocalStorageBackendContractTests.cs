using FileTransfer.Core.Tests.Contract;
using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Local;

/// <summary>The contract suite against the local-disk backend over a fresh temporary folder.</summary>
public sealed class LocalStorageBackendContractTests : StorageBackendContract
{
    private readonly TempFolder _root = new();

    protected override ValueTask<IStorageBackend> CreateBackendAsync() =>
        ValueTask.FromResult<IStorageBackend>(LocalBackends.Create(_root.Path));

    protected override ValueTask DeleteBackendAsync(IStorageBackend backend)
    {
        _root.Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>A file copied into the folder by another program.</summary>
    protected override ValueTask PlaceAsync(string name, byte[] bytes)
    {
        _root.Write(name, bytes);
        return ValueTask.CompletedTask;
    }
}
