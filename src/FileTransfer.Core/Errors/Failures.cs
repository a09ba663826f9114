namespace FileTransfer.Core;

/// <summary>The core's refusals, each with its reason and message written once for every protocol and backend.</summary>
public static class Failures
{
    public static FileTransferException InvalidName(NameRejection rejection) =>
        new(ErrorReason.InvalidFileName, rejection.Reason);

    public static FileTransferException NotFound(string name) =>
        new(ErrorReason.FileNotFound, $"There is no file named '{name}'.");

    public static FileTransferException InvalidRange(string message) =>
        new(ErrorReason.InvalidRange, message);

    public static FileTransferException OffsetPastEnd(long offset, long size) =>
        new(ErrorReason.OffsetPastEnd, $"The offset {offset} is past the end of the file ({size} bytes).");

    public static FileTransferException InvalidPage(string message) =>
        new(ErrorReason.InvalidPageRequest, message);

    public static FileTransferException TooLarge(long maxBytes) =>
        new(ErrorReason.FileTooLarge, $"The file is larger than the limit of {maxBytes} bytes.");

    public static FileTransferException DeclaredTooLarge(long declared, long maxBytes) =>
        new(ErrorReason.FileTooLarge, $"The file is {declared} bytes; the limit is {maxBytes} bytes.");

    public static FileTransferException StorageFull(Exception? inner = null) =>
        new(ErrorReason.StorageFull, "The storage volume is full; nothing was stored.", inner);

    public static FileTransferException NotEnoughSpace() =>
        new(ErrorReason.StorageFull, "There is not enough free space to store the file.");

    public static FileTransferException DigestMismatch() =>
        new(ErrorReason.DigestMismatch, "The SHA-256 of the received bytes does not match the digest the client announced.");

    public static FileTransferException SizeMismatch(long declared, long received) =>
        new(ErrorReason.SizeMismatch, $"{received} bytes arrived but {declared} were declared.");

    public static FileTransferException Exists(string name) =>
        new(ErrorReason.FileExists, $"'{name}' already exists.");

    public static FileTransferException EtagMismatch(string name) =>
        new(ErrorReason.EtagMismatch, $"'{name}' does not match the ETag the client holds.");

    public static FileTransferException IsFolder(string name) =>
        new(ErrorReason.NameConflict, $"'{name}' is a folder.");

    public static FileTransferException FolderIsFile(string name) =>
        new(ErrorReason.NameConflict, $"A folder in '{name}' is a file.");

    public static FileTransferException Unavailable(string message, Exception? inner = null) =>
        new(ErrorReason.StorageUnavailable, message, inner);

    public static FileTransferException UploadNotFound() =>
        new(ErrorReason.UploadNotFound, "There is no upload with that id: it was never created, was cancelled, or expired and was removed.");

    public static FileTransferException UploadExpired(DateTimeOffset expiredAt) =>
        new(ErrorReason.UploadExpired, $"The upload expired at {expiredAt:u}; its bytes are removed. Start a new upload.");

    public static FileTransferException UploadOffsetMismatch(long expected, long provided) =>
        new(ErrorReason.UploadOffsetMismatch, $"The bytes were sent for offset {provided}, but the upload holds {expected} bytes: resume from offset {expected}.")
        {
            ExpectedOffset = expected,
            ProvidedOffset = provided,
        };

    public static FileTransferException UploadBusy() =>
        new(ErrorReason.UploadBusy, "Another request is appending to this upload; one writer at a time. Ask for the offset once it has ended, then resume.");

    public static FileTransferException UploadCompleted() =>
        new(ErrorReason.UploadCompleted, "The upload is complete: its file is stored and nothing more can be appended.");

    public static FileTransferException ChecksumMismatch() =>
        new(ErrorReason.ChecksumMismatch, "The bytes of this request do not match its checksum; none of them were kept. Send them again.");

    public static FileTransferException ContentDigestMismatch() =>
        new(ErrorReason.DigestMismatch, "The bytes of this request do not match its Content-Digest; none of them were kept. Send them again.");

    public static FileTransferException LengthExceeded(long length) =>
        new(ErrorReason.SizeMismatch, $"The upload was declared as {length} bytes; these bytes would go past it.");

    public static FileTransferException LengthConflict(long declared, string problem) =>
        new(ErrorReason.SizeMismatch, $"The upload was declared as {declared} bytes; {problem}");

    public static FileTransferException TooManyUploads(int limit, bool perOwner) =>
        new(ErrorReason.TooManyUploads, perOwner
            ? $"This key or link has {limit} uploads in progress, as many as it may: complete or cancel one before starting another."
            : $"The server has {limit} uploads in progress, as many as it keeps: complete or cancel one, or try again later.");

    public static FileTransferException UploadCancelled() =>
        new(ErrorReason.UploadCancelled, "Another request cancelled this upload while this one was appending to it; nothing more is kept.");

    public static FileTransferException DirectDownloadUnavailable() =>
        new(ErrorReason.DirectDownloadUnavailable, "This server sends file bytes itself; download the file instead (direct downloads need an object store with Storage:S3:RedirectDownloads).");
}
