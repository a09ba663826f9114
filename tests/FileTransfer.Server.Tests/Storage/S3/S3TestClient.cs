using System.Net;
using Amazon.S3;
using Amazon.S3.Model;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Storage.S3;

/// <summary>Short forms of the S3 calls the engine tests repeat.</summary>
public static class S3TestClient
{
    /// <summary>Multipart's minimum part size (all parts but the last).</summary>
    public const int MinPartSize = 5 * 1024 * 1024;

    public static async Task<PutObjectResponse> PutBytesAsync(this IAmazonS3 client, string bucket, string key, byte[] bytes) =>
        await client.PutObjectAsync(new PutObjectRequest { BucketName = bucket, Key = key, InputStream = new MemoryStream(bytes) }, TestTimeout.Token);

    public static async Task<byte[]> GetBytesAsync(this IAmazonS3 client, string bucket, string key)
    {
        using var response = await client.GetObjectAsync(bucket, key, TestTimeout.Token);
        return await ReadAllAsync(response);
    }

    public static async Task<byte[]> ReadAllAsync(GetObjectResponse response)
    {
        using var buffer = new MemoryStream();
        await response.ResponseStream.CopyToAsync(buffer, TestTimeout.Token);
        return buffer.ToArray();
    }

    /// <summary>Starts a multipart upload, sends <paramref name="parts"/> in order, returns the upload id and the part ETags.</summary>
    public static async Task<(string UploadId, List<PartETag> Parts)> UploadPartsAsync(
        this IAmazonS3 client, string bucket, string key, IEnumerable<byte[]> parts, Dictionary<string, string>? metadata = null)
    {
        var create = new InitiateMultipartUploadRequest { BucketName = bucket, Key = key };
        foreach (var (name, value) in metadata ?? [])
        {
            create.Metadata.Add(name, value);
        }

        var uploadId = (await client.InitiateMultipartUploadAsync(create, TestTimeout.Token)).UploadId;
        var etags = new List<PartETag>();
        var number = 1;
        foreach (var part in parts)
        {
            var uploaded = await client.UploadPartAsync(
                new UploadPartRequest { BucketName = bucket, Key = key, UploadId = uploadId, PartNumber = number, InputStream = new MemoryStream(part) },
                TestTimeout.Token);
            etags.Add(new PartETag(number++, uploaded.ETag));
        }

        return (uploadId, etags);
    }

    public static CompleteMultipartUploadRequest Completion(string bucket, string key, string uploadId, List<PartETag> parts) =>
        new() { BucketName = bucket, Key = key, UploadId = uploadId, PartETags = parts };

    /// <summary>Awaits <paramref name="call"/>, which must fail with <paramref name="status"/> (and the S3 error code, when given).</summary>
    public static async Task<AmazonS3Exception> ThrowsAsync(HttpStatusCode status, string? errorCode, Func<Task> call)
    {
        var error = await Assert.ThrowsAsync<AmazonS3Exception>(call);
        Assert.Equal(status, error.StatusCode);
        if (errorCode is not null)
        {
            Assert.Equal(errorCode, error.ErrorCode);
        }

        return error;
    }
}
