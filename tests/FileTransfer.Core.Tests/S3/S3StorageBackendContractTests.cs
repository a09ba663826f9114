using FileTransfer.Core.Tests.Contract;
using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.S3;

/// <summary>
/// The contract suite against the S3 backend on the real Ceph RGW: one bucket for the class, a fresh
/// prefix per test. Small writes are single PutObjects here (the default).
/// </summary>
public sealed class S3StorageBackendContractTests(S3TestBucket bucket) : StorageBackendContract, IClassFixture<S3TestBucket>
{
    private readonly string _prefix = S3TestBucket.NewPrefix();

    protected override ValueTask<IStorageBackend> CreateBackendAsync() => ValueTask.FromResult<IStorageBackend>(bucket.Backend(_prefix));

    protected override async ValueTask DeleteBackendAsync(IStorageBackend backend) => await bucket.EmptyAsync(_prefix);

    /// <summary>An object put into the bucket by another S3 client.</summary>
    protected override async ValueTask PlaceAsync(string name, byte[] bytes) => await bucket.PutAsync(_prefix + name, bytes);
}

/// <summary>
/// The contract suite again with every write going through a multipart upload, whose completion RGW 16
/// does not check conditions on: the write leases alone must keep the preconditions atomic.
/// </summary>
public sealed class S3MultipartBackendContractTests(S3TestBucket bucket) : StorageBackendContract, IClassFixture<S3TestBucket>
{
    private readonly string _prefix = S3TestBucket.NewPrefix();

    protected override ValueTask<IStorageBackend> CreateBackendAsync()
    {
        var backend = bucket.Backend(_prefix);
        backend.MaxHeldBytes = 0;
        return ValueTask.FromResult<IStorageBackend>(backend);
    }

    protected override async ValueTask DeleteBackendAsync(IStorageBackend backend) => await bucket.EmptyAsync(_prefix);

    protected override async ValueTask PlaceAsync(string name, byte[] bytes) => await bucket.PutAsync(_prefix + name, bytes);
}
