using System.Net;
using System.Security.Cryptography;
using Amazon.S3;
using Amazon.S3.Model;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Storage.S3;

/// <summary>
/// What Ceph RGW 16 does with multipart uploads, the way the S3 backend streams every upload: the facts
/// it relies on or works around (docs/ceph-rgw.md lists them).
/// </summary>
public sealed class CephRgwMultipartTests(CephRgwBucket bucket) : IClassFixture<CephRgwBucket>
{
    private const int Part = S3TestClient.MinPartSize;

    private readonly string _bucket = bucket.Name;
    private readonly AmazonS3Client _s3 = bucket.Client;

    [Fact]
    public async Task Multipart_Upload_Of_5MiB_Parts_And_A_Short_Last_Part_Completes_To_The_Exact_Bytes()
    {
        byte[][] parts = [TestData.RandomBytes(Part), TestData.RandomBytes(Part), TestData.RandomBytes(1)];
        var (uploadId, etags) = await _s3.UploadPartsAsync(_bucket, "multipart/ok.bin", parts);

        await _s3.CompleteMultipartUploadAsync(S3TestClient.Completion(_bucket, "multipart/ok.bin", uploadId, etags), TestTimeout.Token);

        var received = await _s3.GetBytesAsync(_bucket, "multipart/ok.bin");
        Assert.Equal(TempStorage.Sha256([.. parts.SelectMany(p => p)]), TempStorage.Sha256(received));
    }

    [Fact]
    public async Task CompleteMultipartUpload_Refuses_A_Part_Under_5MiB_That_Is_Not_The_Last_With_EntityTooSmall()
    {
        // UploadPart takes the short part; only the completion checks sizes.
        byte[][] parts = [TestData.RandomBytes(Part - 1), TestData.RandomBytes(Part)];
        var (uploadId, etags) = await _s3.UploadPartsAsync(_bucket, "multipart/small.bin", parts);

        await S3TestClient.ThrowsAsync(HttpStatusCode.BadRequest, "EntityTooSmall",
            () => _s3.CompleteMultipartUploadAsync(S3TestClient.Completion(_bucket, "multipart/small.bin", uploadId, etags), TestTimeout.Token));
        await S3TestClient.ThrowsAsync(HttpStatusCode.NotFound, null, () => _s3.GetObjectMetadataAsync(_bucket, "multipart/small.bin", TestTimeout.Token));
    }

    [Fact]
    public async Task CompleteMultipartUpload_Answers_An_Empty_ETag_And_HeadObject_Gives_The_Md5_Of_The_Part_Md5s_With_The_Part_Count()
    {
        byte[][] parts = [TestData.RandomBytes(Part), TestData.RandomBytes(10)];
        var (uploadId, etags) = await _s3.UploadPartsAsync(_bucket, "multipart/etag.bin", parts);

        var completed = await _s3.CompleteMultipartUploadAsync(S3TestClient.Completion(_bucket, "multipart/etag.bin", uploadId, etags), TestTimeout.Token);
        var head = await _s3.GetObjectMetadataAsync(_bucket, "multipart/etag.bin", TestTimeout.Token);

        var md5OfMd5s = MD5.HashData([.. parts.SelectMany(MD5.HashData)]);
        var expected = $"\"{Convert.ToHexStringLower(md5OfMd5s)}-{parts.Length}\"";
        Assert.Equal(expected, head.ETag);
        // S3 answers the same ETag; RGW 16 sends <ETag></ETag>. The ETag is computable from the parts' ETags.
        Assert.Equal("", completed.ETag);
    }

    [Fact]
    public async Task CompleteMultipartUpload_Ignores_IfNoneMatch_Star_And_Overwrites_An_Existing_Key()
    {
        await _s3.PutBytesAsync(_bucket, "multipart/exists.bin", TestData.RandomBytes(100));
        byte[][] parts = [TestData.RandomBytes(10)];
        var (uploadId, etags) = await _s3.UploadPartsAsync(_bucket, "multipart/exists.bin", parts);
        var completion = S3TestClient.Completion(_bucket, "multipart/exists.bin", uploadId, etags);
        completion.IfNoneMatch = "*";
        using var sent = new SentHeaders(_s3);

        await _s3.CompleteMultipartUploadAsync(completion, TestTimeout.Token);

        // S3 would answer 412 and keep the old object; RGW 16 replaced it.
        Assert.Equal(["*"], sent.ValuesOf("If-None-Match"));
        Assert.Equal(parts[0], await _s3.GetBytesAsync(_bucket, "multipart/exists.bin"));
    }

    [Fact]
    public async Task CompleteMultipartUpload_Ignores_A_Stale_IfMatch_And_Overwrites_The_Key()
    {
        await _s3.PutBytesAsync(_bucket, "multipart/if-match.bin", TestData.RandomBytes(100));
        byte[][] parts = [TestData.RandomBytes(10)];
        var (uploadId, etags) = await _s3.UploadPartsAsync(_bucket, "multipart/if-match.bin", parts);
        var completion = S3TestClient.Completion(_bucket, "multipart/if-match.bin", uploadId, etags);
        completion.IfMatch = new string('0', 32);
        using var sent = new SentHeaders(_s3);

        await _s3.CompleteMultipartUploadAsync(completion, TestTimeout.Token);

        Assert.Equal([new string('0', 32)], sent.ValuesOf("If-Match"));
        Assert.Equal(parts[0], await _s3.GetBytesAsync(_bucket, "multipart/if-match.bin"));
    }

    [Fact]
    public async Task ListMultipartUploads_Lists_An_Upload_In_Progress_With_Its_Initiation_Time()
    {
        var before = DateTime.UtcNow;
        var (uploadId, _) = await _s3.UploadPartsAsync(_bucket, "multipart/in-progress.bin", [TestData.RandomBytes(10)]);

        var listed = await _s3.ListMultipartUploadsAsync(new ListMultipartUploadsRequest { BucketName = _bucket, Prefix = "multipart/in-progress" }, TestTimeout.Token);

        var upload = Assert.Single(listed.MultipartUploads ?? []);
        Assert.Equal(uploadId, upload.UploadId);
        Assert.Equal("multipart/in-progress.bin", upload.Key);
        // Second precision, same clock as the test (one machine): what a sweep of abandoned uploads compares.
        Assert.InRange(upload.Initiated!.Value.ToUniversalTime(), before.AddSeconds(-2), DateTime.UtcNow.AddSeconds(2));
        await _s3.AbortMultipartUploadAsync(_bucket, "multipart/in-progress.bin", uploadId, TestTimeout.Token);
    }

    [Fact]
    public async Task AbortMultipartUpload_Removes_The_Upload_And_Its_Parts()
    {
        var (uploadId, _) = await _s3.UploadPartsAsync(_bucket, "multipart/aborted.bin", [TestData.RandomBytes(Part), TestData.RandomBytes(10)]);

        await _s3.AbortMultipartUploadAsync(_bucket, "multipart/aborted.bin", uploadId, TestTimeout.Token);

        // S3 answers NoSuchUpload here; RGW 16 answers NoSuchKey (both 404).
        await S3TestClient.ThrowsAsync(HttpStatusCode.NotFound, "NoSuchKey",
            () => _s3.ListPartsAsync(new ListPartsRequest { BucketName = _bucket, Key = "multipart/aborted.bin", UploadId = uploadId }, TestTimeout.Token));
        var late = new UploadPartRequest { BucketName = _bucket, Key = "multipart/aborted.bin", UploadId = uploadId, PartNumber = 3, InputStream = new MemoryStream(new byte[10]) };
        await S3TestClient.ThrowsAsync(HttpStatusCode.NotFound, "NoSuchUpload", () => _s3.UploadPartAsync(late, TestTimeout.Token));
        var listed = await _s3.ListMultipartUploadsAsync(new ListMultipartUploadsRequest { BucketName = _bucket, Prefix = "multipart/aborted" }, TestTimeout.Token);
        Assert.Empty(listed.MultipartUploads ?? []);
        await S3TestClient.ThrowsAsync(HttpStatusCode.NotFound, null, () => _s3.GetObjectMetadataAsync(_bucket, "multipart/aborted.bin", TestTimeout.Token));
    }

    [Fact]
    public async Task CompleteMultipartUpload_Of_An_Aborted_Upload_Fails_With_500_InternalError_Not_NoSuchUpload()
    {
        var (uploadId, etags) = await _s3.UploadPartsAsync(_bucket, "multipart/abort-then-complete.bin", [TestData.RandomBytes(10)]);
        await _s3.AbortMultipartUploadAsync(_bucket, "multipart/abort-then-complete.bin", uploadId, TestTimeout.Token);

        // A sweep that aborts an upload while its writer completes it: the writer sees a server error
        // ("This multipart completion is already in progress"), which the SDK retries before giving up.
        var error = await S3TestClient.ThrowsAsync(HttpStatusCode.InternalServerError, "InternalError",
            () => _s3.CompleteMultipartUploadAsync(S3TestClient.Completion(_bucket, "multipart/abort-then-complete.bin", uploadId, etags), TestTimeout.Token));

        Assert.Contains("already in progress", error.Message, StringComparison.Ordinal);
        await S3TestClient.ThrowsAsync(HttpStatusCode.NotFound, null, () => _s3.GetObjectMetadataAsync(_bucket, "multipart/abort-then-complete.bin", TestTimeout.Token));
    }

    [Fact]
    public async Task Metadata_Set_At_CreateMultipartUpload_Survives_Completion()
    {
        var sha256 = Convert.ToHexStringLower(SHA256.HashData(TestData.RandomBytes(10)));
        var (uploadId, etags) = await _s3.UploadPartsAsync(_bucket, "multipart/meta.bin", [TestData.RandomBytes(10)], new() { ["sha256"] = sha256 });

        await _s3.CompleteMultipartUploadAsync(S3TestClient.Completion(_bucket, "multipart/meta.bin", uploadId, etags), TestTimeout.Token);

        var head = await _s3.GetObjectMetadataAsync(_bucket, "multipart/meta.bin", TestTimeout.Token);
        Assert.Equal(sha256, head.Metadata["x-amz-meta-sha256"]);
    }

    [Fact]
    public async Task CopyObject_Onto_Itself_Needs_The_Replace_Directive_And_Then_Attaches_Metadata_Keeping_Bytes_And_ETag()
    {
        byte[][] parts = [TestData.RandomBytes(Part), TestData.RandomBytes(10)];
        var (uploadId, etags) = await _s3.UploadPartsAsync(_bucket, "multipart/copy.bin", parts);
        await _s3.CompleteMultipartUploadAsync(S3TestClient.Completion(_bucket, "multipart/copy.bin", uploadId, etags), TestTimeout.Token);
        var before = await _s3.GetObjectMetadataAsync(_bucket, "multipart/copy.bin", TestTimeout.Token);
        var unchanged = new CopyObjectRequest { SourceBucket = _bucket, SourceKey = "multipart/copy.bin", DestinationBucket = _bucket, DestinationKey = "multipart/copy.bin" };
        await S3TestClient.ThrowsAsync(HttpStatusCode.BadRequest, "InvalidRequest", () => _s3.CopyObjectAsync(unchanged, TestTimeout.Token));

        var copy = new CopyObjectRequest
        {
            SourceBucket = _bucket,
            SourceKey = "multipart/copy.bin",
            DestinationBucket = _bucket,
            DestinationKey = "multipart/copy.bin",
            MetadataDirective = S3MetadataDirective.REPLACE,
            ETagToMatch = before.ETag,
        };
        copy.Metadata.Add("sha256", "after-completion");
        var copied = await _s3.CopyObjectAsync(copy, TestTimeout.Token);

        var after = await _s3.GetObjectMetadataAsync(_bucket, "multipart/copy.bin", TestTimeout.Token);
        Assert.Equal("after-completion", after.Metadata["x-amz-meta-sha256"]);
        // The copy keeps the multipart ETag (a download pinned with If-Match survives it); CopyObject's
        // own answer carries it without the quotes.
        Assert.Equal(before.ETag, after.ETag);
        Assert.Equal(before.ETag, $"\"{copied.ETag}\"");
        Assert.Equal(TempStorage.Sha256([.. parts.SelectMany(p => p)]), TempStorage.Sha256(await _s3.GetBytesAsync(_bucket, "multipart/copy.bin")));
    }
}
