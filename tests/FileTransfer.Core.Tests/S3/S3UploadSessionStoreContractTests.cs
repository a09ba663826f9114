using FileTransfer.Core.Tests.Contract;
using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.S3;

/// <summary>
/// The session store contract suite against the S3 store on the real Ceph RGW: one bucket for the
/// class, a fresh prefix per test; <see cref="OpenAgain"/> is another replica over the same prefix.
/// </summary>
public sealed class S3UploadSessionStoreContractTests(S3TestBucket bucket) : UploadSessionStoreContract, IClassFixture<S3TestBucket>
{
    private readonly string _prefix = S3TestBucket.NewPrefix();

    protected override ValueTask<(IStorageBackend Backend, IUploadSessionStore Store)> CreateAsync()
    {
        var (backend, sessions) = bucket.Replica(_prefix);
        return ValueTask.FromResult<(IStorageBackend, IUploadSessionStore)>((backend, sessions));
    }

    protected override IUploadSessionStore OpenAgain() => bucket.Replica(_prefix).Sessions;

    protected override async ValueTask DeleteAsync() => await bucket.EmptyAsync(_prefix);

    /// <summary>No record, tail, lease or multipart upload is left under the prefix.</summary>
    protected override async Task AssertHoldsNothingAsync()
    {
        Assert.Empty(await bucket.KeysAsync(_prefix));
        Assert.Empty(await bucket.UploadsAsync(_prefix));
    }
}
