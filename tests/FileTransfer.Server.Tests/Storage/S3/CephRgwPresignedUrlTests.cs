using System.Text;
using Amazon.S3;
using Amazon.S3.Model;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Interop;

namespace FileTransfer.Server.Tests.Storage.S3;

/// <summary>
/// Presigned GET URLs on Ceph RGW 16, fetched with curl as a redirected client would: what the S3
/// backend's redirected downloads rely on (docs/ceph-rgw.md lists the facts).
/// </summary>
public sealed class CephRgwPresignedUrlTests(CephRgwBucket bucket) : IClassFixture<CephRgwBucket>
{
    private readonly string _bucket = bucket.Name;
    private readonly AmazonS3Client _s3 = bucket.Client;

    [Fact]
    public async Task Presigned_Get_Url_Is_Sigv4_Over_Http_And_Curl_Gets_The_Exact_Bytes_And_Ranges()
    {
        var bytes = TestData.RandomBytes(1_000_000);
        await _s3.PutBytesAsync(_bucket, "presigned/file with space+plus.bin", bytes);
        var url = await PresignAsync("presigned/file with space+plus.bin", TimeSpan.FromMinutes(5));

        Assert.StartsWith("http://", url, StringComparison.Ordinal);
        Assert.Contains("X-Amz-Algorithm=AWS4-HMAC-SHA256", url, StringComparison.Ordinal);
        var (whole, wholeStatus) = await CurlAsync(url);
        var (range, rangeStatus) = await CurlAsync(url, "-H", "Range: bytes=999990-");

        Assert.Equal("200", wholeStatus);
        Assert.Equal(TempStorage.Sha256(bytes), TempStorage.Sha256(whole));
        Assert.Equal("206", rangeStatus);
        Assert.Equal(bytes[999_990..], range);
    }

    [Fact]
    public async Task Presigned_Get_Url_Is_Refused_With_403_Once_Expired()
    {
        await _s3.PutBytesAsync(_bucket, "presigned/expiring.bin", TestData.RandomBytes(100));
        var url = await PresignAsync("presigned/expiring.bin", TimeSpan.FromSeconds(3));
        var (_, fresh) = await CurlAsync(url);

        // RGW judges the expiry by its own clock: asked again until it refuses (about 3 s), not a fixed wait.
        var (body, expired) = await CurlAsync(url);
        while (expired == "200")
        {
            await Task.Delay(250, TestTimeout.Token);
            (body, expired) = await CurlAsync(url);
        }

        Assert.Equal("200", fresh);
        Assert.Equal("403", expired);
        Assert.Contains("AccessDenied", Encoding.UTF8.GetString(body), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Presigned_Url_Valid_For_More_Than_7_Days_Is_Silently_Signed_With_Sigv2_Which_Rgw_Accepts()
    {
        var bytes = TestData.RandomBytes(100);
        await _s3.PutBytesAsync(_bucket, "presigned/far.bin", bytes);

        // SigV4 caps X-Amz-Expires at 604800 s; past it the SDK switches to SigV2 without a word.
        var week = await PresignAsync("presigned/far.bin", TimeSpan.FromDays(7) - TimeSpan.FromMinutes(1));
        var far = await PresignAsync("presigned/far.bin", TimeSpan.FromDays(8));
        var (body, status) = await CurlAsync(far);

        Assert.Contains("X-Amz-Algorithm=AWS4-HMAC-SHA256", week, StringComparison.Ordinal);
        Assert.DoesNotContain("X-Amz-Algorithm", far, StringComparison.Ordinal);
        Assert.Contains("Signature=", far, StringComparison.Ordinal);
        Assert.Equal("200", status);
        Assert.Equal(bytes, body);
    }

    /// <summary>
    /// Which conditional GETs RGW 16 answers as RFC 9110 13 says, through a presigned URL (the table in
    /// docs/s3.md, and what <c>S3StorageBackend.Honours</c> assumes): the dates, and <c>If-Match</c> /
    /// <c>If-None-Match</c> with one strong tag, yes; <c>If-Range</c>, tag lists, <c>*</c> and weak tags
    /// not. <c>{E}</c> is the object's current ETag. Should a newer RGW get one right, this fails and
    /// the backend may redirect that condition again.
    /// </summary>
    [Theory]
    [InlineData("If-Range: \"0123456789abcdef0123456789abcdef\"", "206", "200")]
    [InlineData("If-Range: Thu, 01 Jan 2015 00:00:00 GMT", "206", "200")]
    [InlineData("If-Match: {E}", "206", "206")]
    [InlineData("If-Match: \"0123456789abcdef0123456789abcdef\"", "412", "412")]
    [InlineData("If-Match: \"other\", {E}", "412", "206")]
    [InlineData("If-Match: *", "412", "206")]
    [InlineData("If-None-Match: {E}", "304", "304")]
    [InlineData("If-None-Match: \"other\", {E}", "206", "304")]
    [InlineData("If-None-Match: W/{E}", "206", "304")]
    [InlineData("If-None-Match: *", "206", "304")]
    [InlineData("If-Modified-Since: Thu, 01 Jan 2099 00:00:00 GMT", "304", "304")]
    [InlineData("If-Unmodified-Since: Thu, 01 Jan 2015 00:00:00 GMT", "412", "412")]
    public async Task Rgw_Answers_A_Conditional_Range_Get_So(string condition, string rgw, string rfc9110)
    {
        var put = await _s3.PutBytesAsync(_bucket, "presigned/conditions.bin", TestData.RandomBytes(1000));
        var url = await PresignAsync("presigned/conditions.bin", TimeSpan.FromMinutes(5));

        var (_, status) = await CurlAsync(url, "-H", "Range: bytes=10-19", "-H", condition.Replace("{E}", put.ETag, StringComparison.Ordinal));

        Assert.Equal(rgw, status);

        // The backend redirects exactly the requests whose conditions the store answers right.
        var headers = new Microsoft.AspNetCore.Http.HeaderDictionary { ["Range"] = "bytes=10-19" };
        var colon = condition.IndexOf(':', StringComparison.Ordinal);
        headers[condition[..colon]] = condition[(colon + 2)..].Replace("{E}", put.ETag, StringComparison.Ordinal);
        Assert.Equal(rgw == rfc9110, FileTransfer.Storage.S3.S3StorageBackend.StoreHonours(FileTransfer.Server.Rest.ForwardedConditionHeaders.Of(headers)));
    }

    private Task<string> PresignAsync(string key, TimeSpan validFor) =>
        _s3.GetPreSignedURLAsync(new GetPreSignedUrlRequest
        {
            BucketName = _bucket,
            Key = key,
            Verb = HttpVerb.GET,
            Protocol = Amazon.S3.Protocol.HTTP, // qualified: FileTransfer.Server.Protocol is a namespace
            Expires = DateTime.UtcNow + validFor,
        });

    /// <summary>The body and the HTTP status curl saw (curl writes the status last, after the body).</summary>
    private static async Task<(byte[] Body, string Status)> CurlAsync(string url, params string[] arguments)
    {
        var (exitCode, output, error) = await ExternalTool.RunAsync("curl", ["-sS", .. arguments, "-w", "%{http_code}", url]);
        Assert.True(exitCode == 0, error);
        return (output[..^3], Encoding.ASCII.GetString(output[^3..]));
    }
}
