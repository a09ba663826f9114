using Amazon.S3;
using Amazon.S3.Model;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// A class fixture: a fresh bucket on the shared <see cref="CephRgw"/> for one test class, and a client
/// configured like the backend's. Emptied and deleted afterwards: the OSD keeps every object in memory.
/// </summary>
public sealed class CephRgwBucket : IAsyncLifetime
{
    private bool _created;

    public CephRgw Rgw { get; private set; } = null!;

    public AmazonS3Client Client { get; private set; } = null!;

    public string Name { get; } = CephRgw.NewBucketName();

    public async Task InitializeAsync()
    {
        Rgw = await CephRgw.GetAsync();
        Client = Rgw.CreateClient();
        await Client.PutBucketAsync(Name, TestTimeout.Token);
        _created = true;
    }

    public async Task DisposeAsync()
    {
        if (!_created)
        {
            Client?.Dispose();
            return;
        }

        using (Client)
        {
            var uploads = await Client.ListMultipartUploadsAsync(Name, TestTimeout.Token);
            foreach (var upload in uploads.MultipartUploads ?? [])
            {
                await Client.AbortMultipartUploadAsync(Name, upload.Key, upload.UploadId, TestTimeout.Token);
            }

            var request = new ListObjectsV2Request { BucketName = Name };
            ListObjectsV2Response page;
            do
            {
                page = await Client.ListObjectsV2Async(request, TestTimeout.Token);
                foreach (var item in page.S3Objects ?? [])
                {
                    await Client.DeleteObjectAsync(Name, item.Key, TestTimeout.Token);
                }

                request.ContinuationToken = page.NextContinuationToken;
            }
            while (page.IsTruncated == true);

            await Client.DeleteBucketAsync(Name, TestTimeout.Token);
        }
    }
}
