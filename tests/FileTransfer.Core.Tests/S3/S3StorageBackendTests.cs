using System.Net;
using System.Security.Cryptography;
using System.Text;
using Amazon.S3.Model;
using FileTransfer.Core.Tests.Infrastructure;
using FileTransfer.Storage.S3;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core.Tests.S3;

/// <summary>
/// What only the object store has and the contract cannot say: how writes reach the bucket (one
/// PutObject with the digest as metadata, or a multipart upload whose digest record is written before
/// it completes), what an aborted write leaves (nothing, no upload in progress), the sweep of
/// abandoned uploads, a read of a replaced version, the reserved area and the prefix in listings,
/// names too long for a key, and presigned URLs.
/// </summary>
public sealed class S3StorageBackendTests(S3TestBucket bucket) : IClassFixture<S3TestBucket>, IAsyncLifetime
{
    private const int Part = 8 * 1024 * 1024;

    private readonly string _prefix = S3TestBucket.NewPrefix();

    private static CancellationToken Token => TestTimeout.Token;

    [Theory]
    [InlineData(100L * 1024 * 1024 * 1024, 16 * 1024 * 1024)]
    [InlineData(1024L * 1024 * 1024, 8 * 1024 * 1024)]
    [InlineData(78L * 1024 * 1024 * 1024, 8 * 1024 * 1024)]
    [InlineData(5L * 1024 * 1024 * 1024 * 1024, 1024 * 1024 * 1024)]
    [InlineData(1L, 8 * 1024 * 1024)]
    public void Parts_Are_The_Smallest_Power_Of_Two_Of_At_Least_5_MiB_That_Fits_The_Largest_File_In_10000(long maxFileBytes, int expected)
    {
        var size = PartSizes.For(maxFileBytes);

        Assert.Equal(expected, size);
        Assert.True((long)size * PartSizes.MaxParts >= maxFileBytes);
    }

    [Fact]
    public async Task A_Small_Write_Is_One_PutObject_Carrying_Its_Digest_As_Metadata()
    {
        var backend = bucket.Backend(_prefix);
        var source = TestBytes.Random(1000);

        await StoreAsync(backend, "small.bin", source);

        var head = await bucket.Client.GetObjectMetadataAsync(bucket.Name, _prefix + "small.bin", Token);
        Assert.Equal(Convert.ToHexStringLower(SHA256.HashData(source)), head.Metadata["ft-sha256"]);
        Assert.Equal($"\"{Convert.ToHexStringLower(MD5.HashData(source))}\"", head.ETag);
        Assert.Empty(await bucket.KeysAsync(_prefix + ".ft-"));
    }

    [Fact]
    public async Task A_Write_Of_Several_Parts_Completes_With_Its_Digest_Recorded_Under_Its_ETag()
    {
        var backend = bucket.Backend(_prefix, maxFileSizeBytes: 64L * 1024 * 1024);
        var source = TestBytes.Random(Part + 1000);

        var committed = await StoreAsync(backend, "parts.bin", source);

        Assert.EndsWith("-2\"", committed.Object.ETag, StringComparison.Ordinal);
        var record = Assert.Single(await bucket.KeysAsync(_prefix + ".ft-sha256/"));
        Assert.EndsWith("/" + committed.Object.ETag.Trim('"'), record, StringComparison.Ordinal);
        await using var opened = await backend.OpenAsync("parts.bin", Token);
        Assert.Equal(SHA256.HashData(source), opened!.Object.Sha256);
        Assert.Empty(await bucket.UploadsAsync(_prefix));
    }

    [Fact]
    public async Task Disposing_A_Write_That_Sent_Parts_Aborts_Its_Multipart_Upload()
    {
        var backend = bucket.Backend(_prefix, maxFileSizeBytes: 64L * 1024 * 1024);
        var staged = await backend.StageAsync("aborted.bin", null, Token);
        await staged.WriteAsync(TestBytes.Random(Part + 10), Token);
        Assert.Single(await bucket.UploadsAsync(_prefix));

        await staged.DisposeAsync();

        Assert.Empty(await bucket.UploadsAsync(_prefix));
        Assert.Empty(await bucket.KeysAsync(_prefix));
    }

    [Fact]
    public async Task Sealed_Small_Writes_Past_The_Memory_Budget_Go_To_Multipart_Uploads_And_Commit_The_Same()
    {
        var backend = bucket.Backend(_prefix);
        backend.MaxHeldBytes = 300 * 1024;
        var sources = Enumerable.Range(0, 3).Select(_ => TestBytes.Random(200 * 1024)).ToArray();
        var staged = new List<IStagedObject>();
        foreach (var (source, i) in sources.Select((s, i) => (s, i)))
        {
            var write = await backend.StageAsync($"budget/{i}.bin", source.Length, Token);
            await write.WriteAsync(source, Token);
            await write.SealAsync(Token);
            staged.Add(write);
        }

        // The first fits the budget (a 256 KiB buffer); the others went to multipart uploads at seal.
        Assert.Equal(2, (await bucket.UploadsAsync(_prefix)).Count);
        await backend.CommitAsync([.. staged.Select((s, i) => new PendingCommit(s, Preconditions.None, SHA256.HashData(sources[i])))], Token);
        foreach (var write in staged)
        {
            await write.DisposeAsync();
        }

        for (var i = 0; i < sources.Length; i++)
        {
            await using var opened = await backend.OpenAsync($"budget/{i}.bin", Token);
            await using var read = await opened!.OpenReadAsync(0, opened.Object.Size, Token);
            Assert.Equal(TestBytes.Sha256(sources[i]), TestBytes.Sha256(await TestBytes.ReadToEndAsync(read, Token)));
            Assert.Equal(SHA256.HashData(sources[i]), opened.Object.Sha256);
        }

        Assert.Empty(await bucket.UploadsAsync(_prefix));
    }

    [Fact]
    public async Task A_Read_Of_A_Version_Replaced_Since_It_Was_Opened_Fails_Instead_Of_Returning_The_New_Bytes()
    {
        var backend = bucket.Backend(_prefix);
        await StoreAsync(backend, "replaced.bin", TestBytes.Random(5000));
        await using var opened = await backend.OpenAsync("replaced.bin", Token);

        await StoreAsync(backend, "replaced.bin", TestBytes.Random(5000));

        var error = await Assert.ThrowsAsync<VersionGoneException>(async () => await opened!.OpenReadAsync(0, 5000, Token));
        Assert.Equal("replaced.bin", error.Name);
        Assert.Equal(ErrorReason.StorageUnavailable, error.ToRefusal().Reason);
    }

    [Fact]
    public async Task The_Sweep_Aborts_Abandoned_Uploads_And_Keeps_Recent_Ones_And_This_Process_Own()
    {
        var (backend, sessions) = bucket.Replica(_prefix, maxFileSizeBytes: 64L * 1024 * 1024);
        var client = new BucketClient(Options.Create(Settings()));
        var sweeper = new AbandonedUploadSweeper(client, backend, sessions, Options.Create(Settings()), TimeProvider.System, NullLogger<AbandonedUploadSweeper>.Instance);
        var abandoned = await bucket.Client.InitiateMultipartUploadAsync(new InitiateMultipartUploadRequest { BucketName = bucket.Name, Key = _prefix + "abandoned.bin" }, Token);
        await using var ours = await backend.StageAsync("ours.bin", null, Token);
        await ours.WriteAsync(TestBytes.Random(Part), Token);
        var written = await bucket.Client.InitiateMultipartUploadAsync(new InitiateMultipartUploadRequest { BucketName = bucket.Name, Key = _prefix + "slow.bin" }, Token);
        await Task.Delay(TimeSpan.FromSeconds(2.2), Token);
        var cutoff = DateTimeOffset.UtcNow.AddSeconds(-1);

        // A slow writer elsewhere: started before the cutoff, but its last part is newer.
        await bucket.Client.UploadPartAsync(new UploadPartRequest { BucketName = bucket.Name, Key = _prefix + "slow.bin", UploadId = written.UploadId, PartNumber = 1, InputStream = new MemoryStream(new byte[10]) }, Token);

        Assert.Equal(0, await sweeper.SweepAsync(cutoff.AddHours(-1), Token));
        Assert.Equal(1, await sweeper.SweepAsync(cutoff, Token));

        var left = (await bucket.UploadsAsync(_prefix)).Select(u => u.Key).Order(StringComparer.Ordinal);
        Assert.Equal([_prefix + "ours.bin", _prefix + "slow.bin"], left);
        Assert.DoesNotContain(abandoned.UploadId, (await bucket.UploadsAsync(_prefix)).Select(u => u.UploadId));
    }

    [Fact]
    public async Task Listings_Show_Only_The_Prefix_And_Pass_Over_The_Reserved_Area()
    {
        var backend = bucket.Backend(_prefix);
        await bucket.PutAsync("outside.bin", [1]);
        await bucket.PutAsync(_prefix.TrimEnd('/') + "-sibling/x.bin", [1]);
        for (var i = 0; i < 30; i++)
        {
            await bucket.PutAsync($"{_prefix}.ft-sha256/aa/{i:D2}", [1]);
        }

        await StoreAsync(backend, "-before.bin", [1]);
        await StoreAsync(backend, "z.bin", [1]);

        var all = await backend.ListAsync(new ListRequest("", null, 1, ListQuery.MaxNameBytesPerPage), Token);
        var rest = await backend.ListAsync(new ListRequest("", all.NextCursor, 10, ListQuery.MaxNameBytesPerPage), Token);
        var reserved = await backend.ListAsync(new ListRequest(".ft-", null, 10, ListQuery.MaxNameBytesPerPage), Token);

        Assert.Equal(["-before.bin"], all.Objects.Select(o => o.Name));
        Assert.Equal(["z.bin"], rest.Objects.Select(o => o.Name));
        Assert.Null(rest.NextCursor);
        Assert.Empty(reserved.Objects);
        Assert.Null(reserved.NextCursor);
    }

    [Fact]
    public async Task A_Name_Too_Long_For_A_Key_Under_The_Prefix_Is_Refused_As_A_Name()
    {
        var backend = bucket.Backend(_prefix);
        var name = string.Join('/', Enumerable.Repeat(new string('n', 200), 5)) + "/x";
        Assert.True(FileNames.IsValid(name));
        Assert.True(Encoding.UTF8.GetByteCount(_prefix + name) > BucketClient.MaxKeyBytes);

        await Refusals.AssertAsync(ErrorReason.InvalidFileName, async () => await backend.StageAsync(name, 1, Token));

        Assert.Null(await backend.StatAsync(name, Token));
        Assert.Null(await backend.OpenAsync(name, Token));
        Assert.Null(await backend.DeleteAsync(name, Preconditions.None, Token));
    }

    [Fact]
    public async Task A_Presigned_Url_Serves_The_Bytes_With_The_Overrides_And_Lives_No_Longer_Than_Asked()
    {
        var backend = bucket.Backend(_prefix, o => o.RedirectSeconds = 120);
        var source = TestBytes.Random(3000);
        var version = (await StoreAsync(backend, "dir/presigned.txt", source)).Object;

        var url = backend.CreateUrl(version, new DirectDownloadRequest("text/plain", "inline; filename=presigned.txt", null));
        var capped = backend.CreateUrl(version, new DirectDownloadRequest("text/plain", "inline", DateTimeOffset.UtcNow.AddSeconds(30)));
        using var http = new HttpClient();
        using var response = await http.GetAsync(url.Url, Token);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(source, await response.Content.ReadAsByteArrayAsync(Token));
        Assert.Equal("text/plain", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("inline; filename=presigned.txt", response.Content.Headers.ContentDisposition?.ToString());
        Assert.InRange(url.ExpiresAt, DateTimeOffset.UtcNow.AddSeconds(110), DateTimeOffset.UtcNow.AddSeconds(121));
        Assert.Matches("X-Amz-Expires=(119|120|121)(&|$)", url.Url.Query);
        Assert.InRange(capped.ExpiresAt, DateTimeOffset.UtcNow.AddSeconds(20), DateTimeOffset.UtcNow.AddSeconds(31));
        Assert.False(backend.IsEnabled);
    }

    [Fact]
    public void A_Presigned_Url_Names_The_Public_Endpoint_When_One_Is_Set()
    {
        var backend = bucket.Backend(_prefix, o => o.PublicServiceUrl = "https://files.example.net:8443");

        var url = backend.CreateUrl(new StoredObject("a b.txt", 1, DateTimeOffset.UtcNow, "\"x\""), new DirectDownloadRequest("text/plain", "inline", null));

        Assert.Equal("https", url.Url.Scheme);
        Assert.Equal("files.example.net:8443", url.Url.Authority);
        Assert.Equal($"/{bucket.Name}/{_prefix}a%20b.txt", url.Url.AbsolutePath);
    }

    private S3StorageOptions Settings() => new()
    {
        ServiceUrl = bucket.Rgw.ServiceUrl.ToString(),
        Bucket = bucket.Name,
        AccessKey = bucket.Rgw.AccessKey,
        SecretKey = bucket.Rgw.SecretKey,
        Prefix = _prefix,
    };

    private static async Task<CommittedObject> StoreAsync(IStorageBackend backend, string name, byte[] bytes)
    {
        await using var staged = await backend.StageAsync(name, bytes.Length, Token);
        foreach (var piece in TestBytes.UnevenPieces(bytes))
        {
            await staged.WriteAsync(piece, Token);
        }

        await staged.SealAsync(Token);
        return Assert.Single(await backend.CommitAsync([new PendingCommit(staged, Preconditions.None, SHA256.HashData(bytes))], Token));
    }

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync() => await bucket.EmptyAsync(_prefix);
}
