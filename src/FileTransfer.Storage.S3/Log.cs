using Microsoft.Extensions.Logging;

namespace FileTransfer.Storage.S3;

/// <summary>The object-store backend's log events (ids 70-89, 220-229). None carries a credential: only the location, names, keys and ids.</summary>
internal static partial class Log
{
    [LoggerMessage(EventId = 70, Level = LogLevel.Information, Message = "Files are stored in {Location}")]
    public static partial void UsingBucket(ILogger logger, string location);

    [LoggerMessage(EventId = 71, Level = LogLevel.Information, Message = "Created the bucket {Bucket}")]
    public static partial void CreatedBucket(ILogger logger, string bucket);

    [LoggerMessage(EventId = 72, Level = LogLevel.Warning, Message = "The object store at {Location} did not answer at start (attempt {Attempt}); trying again")]
    public static partial void StoreNotReady(ILogger logger, string location, int attempt, Exception exception);

    [LoggerMessage(EventId = 73, Level = LogLevel.Warning, Message = "Took over the expired write lease of {Name} (its holder stopped before releasing it)")]
    public static partial void LeaseTakenOver(ILogger logger, string name);

    [LoggerMessage(EventId = 74, Level = LogLevel.Warning, Message = "Could not release the write lease of {Name}; trying again once the store answers (it expires on its own otherwise)")]
    public static partial void LeaseReleaseFailed(ILogger logger, string name, Exception exception);

    [LoggerMessage(EventId = 75, Level = LogLevel.Warning, Message = "The write lease of {Name} was taken over before it was released: a commit outlasted the lease")]
    public static partial void LeaseLost(ILogger logger, string name);

    [LoggerMessage(EventId = 76, Level = LogLevel.Warning, Message = "Could not abort the multipart upload {UploadId} of {Key}; trying again once the store answers")]
    public static partial void AbortFailed(ILogger logger, string key, string uploadId, Exception exception);

    [LoggerMessage(EventId = 77, Level = LogLevel.Information, Message = "Aborted {Count} abandoned multipart uploads")]
    public static partial void Swept(ILogger logger, int count);

    [LoggerMessage(EventId = 78, Level = LogLevel.Warning, Message = "The sweep of abandoned multipart uploads failed; it runs again later")]
    public static partial void SweepFailed(ILogger logger, Exception exception);

    [LoggerMessage(EventId = 79, Level = LogLevel.Warning, Message = "Could not store the SHA-256 of {Name} (ETag {ETag}); it is computed again when needed")]
    public static partial void DigestSaveFailed(ILogger logger, string name, string etag, Exception exception);

    [LoggerMessage(EventId = 80, Level = LogLevel.Debug, Message = "Could not remove the SHA-256 record {Key}; it names a version that no longer exists and is never read")]
    public static partial void DigestForgetFailed(ILogger logger, string key, Exception exception);

    [LoggerMessage(EventId = 81, Level = LogLevel.Warning, Message = "The object {Key} changed outside the write lease while committing; checking its preconditions again")]
    public static partial void ChangedOutsideLease(ILogger logger, string key);

    [LoggerMessage(EventId = 82, Level = LogLevel.Debug, Message = "Could not remove the replaced tail {Key} of an upload session; it goes with the session")]
    public static partial void SessionTailDeleteFailed(ILogger logger, string key, Exception exception);

    [LoggerMessage(EventId = 220, Level = LogLevel.Information, Message = "The object store answers again: {Cleanup} done")]
    public static partial void CleanupDone(ILogger logger, string cleanup);

    [LoggerMessage(EventId = 221, Level = LogLevel.Warning, Message = "{Cleanup} failed for good after the object store came back; left to the sweep and the leases' expiry")]
    public static partial void CleanupFailed(ILogger logger, string cleanup, Exception exception);

    [LoggerMessage(EventId = 222, Level = LogLevel.Warning, Message = "Gave up on {Cleanup}: the object store has not answered for {Minutes} min; left to the sweep and the leases' expiry")]
    public static partial void CleanupAbandoned(ILogger logger, string cleanup, double minutes);

    [LoggerMessage(EventId = 223, Level = LogLevel.Warning, Message = "Too much clean-up waits for the object store; {Cleanup} is left to the sweep and the leases' expiry")]
    public static partial void CleanupDropped(ILogger logger, string cleanup);

    [LoggerMessage(EventId = 224, Level = LogLevel.Information, Message = "Took back the write lease of {Name}, which this server could not release while the object store failed")]
    public static partial void LeaseTakenBack(ILogger logger, string name);

    [LoggerMessage(EventId = 226, Level = LogLevel.Warning, Message = "The object store failed while writing {Key}; its multipart upload {UploadId} is aborted once it answers again")]
    public static partial void AbortDeferred(ILogger logger, string key, string uploadId);

    [LoggerMessage(EventId = 225, Level = LogLevel.Warning, Message = "Upload {UploadId}: the object store failed while saving it; {Bytes} bytes are kept until it answers again")]
    public static partial void SessionSaveHeld(ILogger logger, string uploadId, int bytes);
}
