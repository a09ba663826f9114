using System.Net;
using System.Security.Cryptography;
using Amazon.S3.Model;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Storage.S3;

/// <summary>
/// What Ceph RGW 16 does with single objects, through AWSSDK.S3 configured like the S3 backend: the facts
/// the backend relies on (docs/ceph-rgw.md lists them). An RGW or SDK upgrade that changes one fails here.
/// </summary>
public sealed class CephRgwObjectTests(CephRgwBucket bucket) : IClassFixture<CephRgwBucket>
{
    private readonly string _bucket = bucket.Name;
    private readonly Amazon.S3.AmazonS3Client _s3 = bucket.Client;

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(4 * 1024 * 1024 + 1)] // past RGW's 4 MiB head object: the rest lives in tail objects
    public async Task PutObject_GetObject_And_HeadObject_Agree_On_Bytes_Length_And_The_Md5_ETag(int size)
    {
        var bytes = TestData.RandomBytes(size);
        var key = $"round-trip/{size}.bin";

        var put = await _s3.PutBytesAsync(_bucket, key, bytes);
        using var get = await _s3.GetObjectAsync(_bucket, key, TestTimeout.Token);
        var received = await S3TestClient.ReadAllAsync(get);
        var head = await _s3.GetObjectMetadataAsync(_bucket, key, TestTimeout.Token);

        Assert.Equal(TempStorage.Sha256(bytes), TempStorage.Sha256(received));
        Assert.Equal(size, head.ContentLength);
        // A single PUT's ETag is the quoted hex MD5 of the bytes, the same on every answer.
        var md5 = $"\"{Convert.ToHexStringLower(MD5.HashData(bytes))}\"";
        Assert.Equal(md5, put.ETag);
        Assert.Equal(md5, get.ETag);
        Assert.Equal(md5, head.ETag);
    }

    [Theory]
    [InlineData(0, 0)]
    [InlineData(4 * 1024 * 1024 - 10, 4 * 1024 * 1024 + 9)] // across the head/tail boundary
    [InlineData(5 * 1024 * 1024 - 1, 5 * 1024 * 1024 - 1)] // the last byte
    public async Task Ranged_GetObject_Answers_206_With_Exactly_The_Range(long first, long last)
    {
        var bytes = TestData.RandomBytes(5 * 1024 * 1024);
        await _s3.PutBytesAsync(_bucket, "range/five-mib.bin", bytes);

        using var get = await _s3.GetObjectAsync(
            new GetObjectRequest { BucketName = _bucket, Key = "range/five-mib.bin", ByteRange = new ByteRange(first, last) },
            TestTimeout.Token);

        Assert.Equal(HttpStatusCode.PartialContent, get.HttpStatusCode);
        Assert.Equal($"bytes {first}-{last}/{bytes.Length}", get.ContentRange);
        Assert.Equal(bytes[(int)first..(int)(last + 1)], await S3TestClient.ReadAllAsync(get));
    }

    [Fact]
    public async Task PutObject_With_IfNoneMatch_Star_Creates_A_New_Key_And_Is_Refused_With_412_On_An_Existing_One()
    {
        var first = TestData.RandomBytes(100);
        var create = new PutObjectRequest { BucketName = _bucket, Key = "create-only.bin", InputStream = new MemoryStream(first), IfNoneMatch = "*" };
        await _s3.PutObjectAsync(create, TestTimeout.Token);

        var again = new PutObjectRequest { BucketName = _bucket, Key = "create-only.bin", InputStream = new MemoryStream(TestData.RandomBytes(100)), IfNoneMatch = "*" };
        await S3TestClient.ThrowsAsync(HttpStatusCode.PreconditionFailed, "PreconditionFailed", () => _s3.PutObjectAsync(again, TestTimeout.Token));

        Assert.Equal(first, await _s3.GetBytesAsync(_bucket, "create-only.bin"));
    }

    [Fact]
    public async Task PutObject_With_IfMatch_Replaces_Only_With_The_Unquoted_Current_ETag()
    {
        var put = await _s3.PutBytesAsync(_bucket, "replace.bin", TestData.RandomBytes(100));
        var quoted = put.ETag;
        var unquoted = quoted.Trim('"');

        // The ETag exactly as S3 answers it (quoted, as RFC 9110 8.8.3 writes it) is refused...
        var withQuotes = new PutObjectRequest { BucketName = _bucket, Key = "replace.bin", InputStream = new MemoryStream(TestData.RandomBytes(100)), IfMatch = quoted };
        await S3TestClient.ThrowsAsync(HttpStatusCode.PreconditionFailed, null, () => _s3.PutObjectAsync(withQuotes, TestTimeout.Token));

        // ...and a stale one too; only the bare hex matches.
        var stale = new PutObjectRequest { BucketName = _bucket, Key = "replace.bin", InputStream = new MemoryStream(TestData.RandomBytes(100)), IfMatch = new string('0', 32) };
        await S3TestClient.ThrowsAsync(HttpStatusCode.PreconditionFailed, null, () => _s3.PutObjectAsync(stale, TestTimeout.Token));

        var replacement = TestData.RandomBytes(100);
        var matching = new PutObjectRequest { BucketName = _bucket, Key = "replace.bin", InputStream = new MemoryStream(replacement), IfMatch = unquoted };
        await _s3.PutObjectAsync(matching, TestTimeout.Token);
        Assert.Equal(replacement, await _s3.GetBytesAsync(_bucket, "replace.bin"));
    }

    [Fact]
    public async Task GetObject_With_IfMatch_Serves_The_Current_Version_And_Refuses_A_Replaced_One_With_412()
    {
        var first = await _s3.PutBytesAsync(_bucket, "pinned.bin", TestData.RandomBytes(1000));

        // A resumed download pins its range to the version it started with.
        using (var resumed = await _s3.GetObjectAsync(
            new GetObjectRequest { BucketName = _bucket, Key = "pinned.bin", EtagToMatch = first.ETag, ByteRange = new ByteRange(500, 999) },
            TestTimeout.Token))
        {
            Assert.Equal(HttpStatusCode.PartialContent, resumed.HttpStatusCode);
        }

        await _s3.PutBytesAsync(_bucket, "pinned.bin", TestData.RandomBytes(1000));
        var stale = new GetObjectRequest { BucketName = _bucket, Key = "pinned.bin", EtagToMatch = first.ETag, ByteRange = new ByteRange(500, 999) };
        await S3TestClient.ThrowsAsync(HttpStatusCode.PreconditionFailed, "PreconditionFailed", () => _s3.GetObjectAsync(stale, TestTimeout.Token));
    }

    [Fact]
    public async Task PutObject_Accepts_A_Wrong_Checksum_Sha256_Without_Checking_It()
    {
        var bytes = TestData.RandomBytes(1000);
        var wrong = Convert.ToBase64String(SHA256.HashData(TestData.RandomBytes(10)));
        using var sent = new SentHeaders(_s3);

        await _s3.PutObjectAsync(
            new PutObjectRequest { BucketName = _bucket, Key = "checksum.bin", InputStream = new MemoryStream(bytes), ChecksumSHA256 = wrong },
            TestTimeout.Token);

        // The header did go out with the wrong value, and the bytes were stored all the same.
        Assert.Equal([wrong], sent.ValuesOf("x-amz-checksum-sha256"));
        Assert.Equal(bytes, await _s3.GetBytesAsync(_bucket, "checksum.bin"));
    }

    [Fact]
    public async Task PutObject_Refuses_A_Wrong_Content_Md5_With_400_BadDigest()
    {
        var wrong = Convert.ToBase64String(MD5.HashData(TestData.RandomBytes(10)));
        var put = new PutObjectRequest { BucketName = _bucket, Key = "md5.bin", InputStream = new MemoryStream(TestData.RandomBytes(1000)), MD5Digest = wrong };

        await S3TestClient.ThrowsAsync(HttpStatusCode.BadRequest, "BadDigest", () => _s3.PutObjectAsync(put, TestTimeout.Token));
        await S3TestClient.ThrowsAsync(HttpStatusCode.NotFound, null, () => _s3.GetObjectMetadataAsync(_bucket, "md5.bin", TestTimeout.Token));
    }

    [Theory]
    [InlineData("keys/with space and 100% + plus.bin")]
    [InlineData("keys/ünïcödé 中文 😀 ～.bin")]
    [InlineData("keys/../up/./here/..")]
    [InlineData("keys/double//slash/")]
    [InlineData("keys/reserved ?#[]@!$&'()*,;=~.bin")]
    public async Task Object_Keys_Round_Trip_Exactly_Through_Put_List_Get_And_Delete(string key)
    {
        var bytes = TestData.RandomBytes(100);

        await _s3.PutBytesAsync(_bucket, key, bytes);
        var listed = await _s3.ListObjectsV2Async(new ListObjectsV2Request { BucketName = _bucket, Prefix = key }, TestTimeout.Token);

        Assert.Equal([key], listed.S3Objects?.Select(o => o.Key) ?? []);
        Assert.Equal(bytes, await _s3.GetBytesAsync(_bucket, key));
        await _s3.DeleteObjectAsync(_bucket, key, TestTimeout.Token);
        await S3TestClient.ThrowsAsync(HttpStatusCode.NotFound, null, () => _s3.GetObjectMetadataAsync(_bucket, key, TestTimeout.Token));
    }

    [Fact]
    public async Task DeleteObject_On_A_Missing_Key_Answers_204()
    {
        var deleted = await _s3.DeleteObjectAsync(_bucket, "never-written.bin", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.NoContent, deleted.HttpStatusCode);
    }
}
