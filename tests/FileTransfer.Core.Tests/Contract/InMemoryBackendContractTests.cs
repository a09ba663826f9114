using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Contract;

/// <summary>The contract suite against the in-memory test backend, which proves the suite asks only what a backend can give.</summary>
public sealed class InMemoryBackendContractTests : StorageBackendContract
{
    protected override ValueTask<IStorageBackend> CreateBackendAsync() => ValueTask.FromResult<IStorageBackend>(new InMemoryBackend());

    protected override ValueTask DeleteBackendAsync(IStorageBackend backend) => ValueTask.CompletedTask;

    protected override ValueTask PlaceAsync(string name, byte[] bytes)
    {
        ((InMemoryBackend)Backend).Place(name, bytes);
        return ValueTask.CompletedTask;
    }
}
