using Amazon.S3.Model;
using FileTransfer.Core;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace FileTransfer.Storage.S3;

/// <summary>
/// Aborts multipart uploads that a crash, a kill or a failed abort left behind: their parts take
/// space and are invisible to every listing. An upload is abandoned when it started more than
/// <see cref="S3StorageOptions.AbandonedUploadAge"/> ago and its newest part is as old, and no write
/// of this process holds it. Every replica sweeps the bucket's prefix; a replica's own uploads in
/// progress are known only to it, so a slow upload elsewhere is kept by its recent parts. The
/// uploads of resumable sessions are never abandoned while their session record names them, however
/// long a client leaves them idle: the session sweeper removes them when the session expires.
/// </summary>
internal sealed class AbandonedUploadSweeper(
    BucketClient bucket,
    S3StorageBackend backend,
    S3UploadSessionStore sessions,
    IOptions<S3StorageOptions> options,
    TimeProvider time,
    ILogger<AbandonedUploadSweeper> logger) : BackgroundService
{
    private TimeSpan Age => options.Value.AbandonedUploadAge;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        // Often enough that an abandoned upload goes within a quarter of the age past it, at most hourly.
        using var timer = new PeriodicTimer(TimeSpan.FromTicks(Math.Min(TimeSpan.FromHours(1).Ticks, Age.Ticks / 4)), time);
        do
        {
            try
            {
                await SweepAsync(time.GetUtcNow() - Age, stoppingToken);
            }
            catch (Exception ex) when (ex is FileTransferException or StorageReadException)
            {
                Log.SweepFailed(logger, ex);
            }
        }
        while (await timer.WaitForNextTickAsync(stoppingToken));
    }

    /// <summary>Aborts every upload under the prefix started, and last written to, before <paramref name="cutoff"/>; returns how many.</summary>
    internal async Task<int> SweepAsync(DateTimeOffset cutoff, CancellationToken cancellationToken)
    {
        var aborted = 0;

        // Read before the uploads are listed: an upload started after this is younger than the cutoff.
        var ofSessions = await sessions.UploadIdsAsync(cancellationToken);
        var request = new ListMultipartUploadsRequest { BucketName = bucket.Name, Prefix = bucket.Prefix };
        ListMultipartUploadsResponse page;
        do
        {
            page = await bucket.Client.ListMultipartUploadsAsync(request, cancellationToken);
            foreach (var upload in page.MultipartUploads ?? [])
            {
                if (upload.Initiated is { } started && Utc(started) < cutoff
                    && !backend.IsInProgress(upload.UploadId)
                    && !ofSessions.Contains(upload.UploadId)
                    && await LastWrittenAsync(upload, cancellationToken) < cutoff)
                {
                    await backend.AbortAsync(upload.Key, upload.UploadId);
                    aborted++;
                }
            }

            request.KeyMarker = page.NextKeyMarker;
            request.UploadIdMarker = page.NextUploadIdMarker;
        }
        while (page.IsTruncated == true);

        if (aborted > 0)
        {
            Log.Swept(logger, aborted);
        }

        return aborted;
    }

    // The newest part's time (the first part of a listing is not the newest: parts list by number).
    private async Task<DateTimeOffset> LastWrittenAsync(MultipartUpload upload, CancellationToken cancellationToken)
    {
        var newest = DateTimeOffset.MinValue;
        var request = new ListPartsRequest { BucketName = bucket.Name, Key = upload.Key, UploadId = upload.UploadId };
        ListPartsResponse parts;
        do
        {
            parts = await bucket.Client.ListPartsAsync(request, cancellationToken);
            foreach (var part in parts.Parts ?? [])
            {
                if (part.LastModified is { } written && Utc(written) > newest)
                {
                    newest = Utc(written);
                }
            }

            request.PartNumberMarker = parts.NextPartNumberMarker?.ToString(System.Globalization.CultureInfo.InvariantCulture);
        }
        while (parts.IsTruncated == true);

        return newest;
    }

    private static DateTimeOffset Utc(DateTime value) =>
        value.Kind == DateTimeKind.Unspecified ? new DateTimeOffset(value, TimeSpan.Zero) : new DateTimeOffset(value.ToUniversalTime(), TimeSpan.Zero);
}
