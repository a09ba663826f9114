using System.Text;
using Amazon.S3;
using Amazon.S3.Model;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Storage.S3;

/// <summary>
/// How Ceph RGW 16 lists keys (ListObjectsV2): the order and the paging the backend builds the REST and
/// gRPC listings from (docs/ceph-rgw.md lists the facts).
/// </summary>
public sealed class CephRgwListingTests(CephRgwBucket bucket) : IClassFixture<CephRgwBucket>, IAsyncLifetime
{
    // U+FF5E '～' sorts before U+1F600 '😀' in UTF-8 (EF BD 9E < F0 9F 98 80) and after it in UTF-16
    // (FF5E > D83D), which is how .NET's ordinal string comparison orders them.
    private static readonly string[] Names = ["a", "Z", "é", "中", "😀", "～", "a0", "ab", "A b", "a-b", "a/b"];

    private readonly string _bucket = bucket.Name;
    private readonly AmazonS3Client _s3 = bucket.Client;

    public async Task InitializeAsync()
    {
        foreach (var name in Names)
        {
            await _s3.PutBytesAsync(_bucket, "order/" + name, [1]);
        }

        foreach (var name in new[] { "tree/top.txt", "tree/sub/one.txt", "tree/sub/two.txt", "tree/other/x.txt", "tree.txt", "treehouse/y.txt" })
        {
            await _s3.PutBytesAsync(_bucket, name, [1]);
        }
    }

    public Task DisposeAsync() => Task.CompletedTask;

    [Fact]
    public async Task ListObjectsV2_Orders_Keys_By_Their_Utf8_Bytes_Not_By_Utf16()
    {
        var keys = await ListAsync(new ListObjectsV2Request { BucketName = _bucket, Prefix = "order/" });

        var utf8Order = Names.Select(n => "order/" + n).OrderBy(Encoding.UTF8.GetBytes, ByteOrder.Instance).ToList();
        Assert.Equal(utf8Order, keys);
        Assert.NotEqual(Names.Select(n => "order/" + n).Order(StringComparer.Ordinal), keys);
        Assert.True(keys.IndexOf("order/～") < keys.IndexOf("order/😀"));
    }

    [Fact]
    public async Task ListObjectsV2_MaxKeys_Pages_Follow_Continuation_Tokens_To_The_Same_Listing()
    {
        var all = await ListAsync(new ListObjectsV2Request { BucketName = _bucket, Prefix = "order/" });
        var request = new ListObjectsV2Request { BucketName = _bucket, Prefix = "order/", MaxKeys = 3 };
        var paged = new List<string>();
        var pages = 0;
        ListObjectsV2Response page;
        do
        {
            page = await _s3.ListObjectsV2Async(request, TestTimeout.Token);
            pages++;
            Assert.InRange(page.S3Objects?.Count ?? 0, 1, 3);
            paged.AddRange(page.S3Objects?.Select(o => o.Key) ?? []);
            request.ContinuationToken = page.NextContinuationToken;
        }
        while (page.IsTruncated == true);

        Assert.Equal(all, paged);
        Assert.Equal((Names.Length + 2) / 3, pages);
    }

    [Fact]
    public async Task ListObjectsV2_StartAfter_Starts_Strictly_After_The_Key_In_Utf8_Order()
    {
        var keys = await ListAsync(new ListObjectsV2Request { BucketName = _bucket, Prefix = "order/", StartAfter = "order/中" });

        Assert.Equal(["order/～", "order/😀"], keys);
    }

    [Fact]
    public async Task ListObjectsV2_Prefix_With_Delimiter_Gives_The_Files_And_Folders_Of_One_Level()
    {
        var response = await _s3.ListObjectsV2Async(new ListObjectsV2Request { BucketName = _bucket, Prefix = "tree/", Delimiter = "/" }, TestTimeout.Token);

        Assert.Equal(["tree/top.txt"], response.S3Objects?.Select(o => o.Key) ?? []);
        Assert.Equal(["tree/other/", "tree/sub/"], response.CommonPrefixes ?? []);
    }

    [Fact]
    public async Task ListObjectsV2_MaxKeys_Counts_Folders_And_Files_Together()
    {
        var request = new ListObjectsV2Request { BucketName = _bucket, Prefix = "tree/", Delimiter = "/", MaxKeys = 1 };
        var entries = new List<string>();
        ListObjectsV2Response page;
        do
        {
            page = await _s3.ListObjectsV2Async(request, TestTimeout.Token);
            var onPage = (page.CommonPrefixes ?? []).Concat(page.S3Objects?.Select(o => o.Key) ?? []).ToList();
            Assert.Single(onPage);
            entries.AddRange(onPage);
            request.ContinuationToken = page.NextContinuationToken;
        }
        while (page.IsTruncated == true);

        Assert.Equal(["tree/other/", "tree/sub/", "tree/top.txt"], entries);
    }

    private async Task<List<string>> ListAsync(ListObjectsV2Request request)
    {
        var response = await _s3.ListObjectsV2Async(request, TestTimeout.Token);
        Assert.False(response.IsTruncated == true);
        return [.. response.S3Objects?.Select(o => o.Key) ?? []];
    }

    private sealed class ByteOrder : IComparer<byte[]>
    {
        public static readonly ByteOrder Instance = new();

        public int Compare(byte[]? x, byte[]? y) => x.AsSpan().SequenceCompareTo(y);
    }
}
