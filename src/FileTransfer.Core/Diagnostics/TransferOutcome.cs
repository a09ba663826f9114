namespace FileTransfer.Core;

/// <summary>
/// How a transfer ended: the <c>outcome</c> tag of the transfer metrics and the outcome in the
/// per-transfer log line, decided here for both protocols so that the same failure counts the same.
/// </summary>
public static class TransferOutcome
{
    /// <summary>The bytes were sent or stored.</summary>
    public const string Success = "success";

    /// <summary>REST 304: the client's copy is current; nothing was sent.</summary>
    public const string NotModified = "not_modified";

    /// <summary>Refused for a reason the client can act on (bad name, missing file, failed precondition, too large...).</summary>
    public const string Rejected = "rejected";

    /// <summary>The client went away (or was cut off for idling, or its upload was cancelled by another request) before the transfer finished.</summary>
    public const string Aborted = "aborted";

    /// <summary>The server or its storage failed.</summary>
    public const string Failed = "failed";

    /// <summary>
    /// The outcome of a failure for <paramref name="reason"/>: the server's own failures (storage
    /// full or unreachable, a hook that does not answer, a fault it did not foresee) are failed;
    /// everything the client caused or can fix is rejected, and a client that stopped sending is aborted.
    /// </summary>
    public static string Of(ErrorReason reason) => reason switch
    {
        ErrorReason.StorageFull or ErrorReason.StorageUnavailable or ErrorReason.InternalError or ErrorReason.HookUnavailable => Failed,
        ErrorReason.UploadIdle or ErrorReason.UploadCancelled => Aborted,
        _ => Rejected,
    };
}
