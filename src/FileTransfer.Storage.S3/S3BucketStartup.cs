using System.Net;
using Amazon.S3;
using Amazon.S3.Model;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Storage.S3;

/// <summary>
/// Before the server takes requests: the bucket exists (created when missing; several replicas
/// starting at once may all try, which S3 answers with "already owned by you"). A store that does
/// not answer yet (it starts alongside the server) is tried again for up to <see cref="Patience"/>,
/// then the host fails to start with the store's error.
/// </summary>
internal sealed class S3BucketStartup(BucketClient bucket, TimeProvider time, ILogger<S3BucketStartup> logger) : IHostedService
{
    internal static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var giveUp = time.GetUtcNow() + Patience;
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                await EnsureBucketAsync(cancellationToken);
                Log.UsingBucket(logger, bucket.Location);
                return;
            }
            catch (Exception ex) when (IsNotReady(ex) && time.GetUtcNow() < giveUp)
            {
                Log.StoreNotReady(logger, bucket.Location, attempt, ex);
                await Task.Delay(TimeSpan.FromSeconds(1), time, cancellationToken);
            }
        }
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    private async Task EnsureBucketAsync(CancellationToken cancellationToken)
    {
        try
        {
            await bucket.Client.HeadBucketAsync(new HeadBucketRequest { BucketName = bucket.Name }, cancellationToken);
        }
        catch (AmazonS3Exception ex) when (ex.StatusCode == HttpStatusCode.NotFound)
        {
            try
            {
                await bucket.Client.PutBucketAsync(new PutBucketRequest { BucketName = bucket.Name }, cancellationToken);
                Log.CreatedBucket(logger, bucket.Name);
            }
            catch (AmazonS3Exception created) when (created.ErrorCode is "BucketAlreadyOwnedByYou")
            {
                // Another replica created it first.
            }
        }
    }

    // Refused credentials or a bucket owned by someone else will not get better by waiting.
    private static bool IsNotReady(Exception exception) =>
        S3Failures.IsUnavailable(exception)
        && exception.InnerException is not AmazonS3Exception { StatusCode: HttpStatusCode.Forbidden or HttpStatusCode.Conflict or HttpStatusCode.BadRequest };
}
