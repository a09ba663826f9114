namespace FileTransfer.Core;

/// <summary>
/// Why an operation failed, one value per failure a client can tell apart. Both protocols carry it
/// as the same stable string (<see cref="ErrorReasons.Code"/>): gRPC in <c>google.rpc.ErrorInfo.reason</c>,
/// REST in the problem's <c>reason</c> member. Programs switch on it, never on message text; each
/// protocol maps it to its own status in one table.
/// </summary>
public enum ErrorReason
{
    /// <summary>The name breaks a rule (<see cref="FileNames"/>) or leads where the backend refuses to go.</summary>
    InvalidFileName,

    /// <summary>A negative offset or limit, or a malformed range.</summary>
    InvalidRange,

    /// <summary>An upload whose messages or headers do not follow the protocol (order, sizes, digests).</summary>
    InvalidUploadStream,

    /// <summary>A negative page size, or a page token that is not ours or not for this prefix.</summary>
    InvalidPageRequest,

    /// <summary>There is no file of that name (or it is a folder).</summary>
    FileNotFound,

    /// <summary>The requested offset or range starts past the end of the file.</summary>
    OffsetPastEnd,

    /// <summary>More bytes than the size limit (or the signed link's cap) allows.</summary>
    FileTooLarge,

    /// <summary>The storage has no room for the bytes; nothing was stored.</summary>
    StorageFull,

    /// <summary>The bytes do not have the SHA-256 the client or the link announced.</summary>
    DigestMismatch,

    /// <summary>Fewer or more bytes arrived than the client declared.</summary>
    SizeMismatch,

    /// <summary>The client asked not to replace an existing file, and one exists.</summary>
    FileExists,

    /// <summary>The file does not match the ETag the client holds (changed, or gone).</summary>
    EtagMismatch,

    /// <summary>The name is taken by a folder, or a folder in the name is a file.</summary>
    NameConflict,

    /// <summary>No credential, or one that is not valid.</summary>
    Unauthenticated,

    /// <summary>A valid credential that does not grant the operation.</summary>
    PermissionDenied,

    /// <summary>The client has too many requests running or started too many per second.</summary>
    RateLimited,

    /// <summary>The storage backend did not answer or failed; the client may retry.</summary>
    StorageUnavailable,

    /// <summary>An upload whose client stopped sending for longer than the idle limit.</summary>
    UploadIdle,

    /// <summary>A request message that does not parse (gRPC: protobuf could not read it; REST: a parameter or JSON body the framework could not bind).</summary>
    MalformedMessage,

    /// <summary>A form carries more files than one request may (<see cref="StorageOptions.MaxFilesPerRequest"/>).</summary>
    TooManyFiles,

    /// <summary>A signed-link request the server will not issue (lifetime, size cap or digest out of bounds).</summary>
    InvalidLinkRequest,

    /// <summary>There is no upload session with that id (never created, cancelled, or removed after it expired).</summary>
    UploadNotFound,

    /// <summary>The upload session expired (<c>Uploads:ExpirySeconds</c> after its last append); its bytes are removed.</summary>
    UploadExpired,

    /// <summary>The bytes were sent for another offset than the session's durable offset: ask for the status and resume from there.</summary>
    UploadOffsetMismatch,

    /// <summary>Another request is appending to the upload session; one writer at a time.</summary>
    UploadBusy,

    /// <summary>The upload session is complete: its file is stored and nothing more can be appended.</summary>
    UploadCompleted,

    /// <summary>The bytes of one request do not have the checksum the request announced (tus <c>Upload-Checksum</c>); none of them were kept.</summary>
    ChecksumMismatch,

    /// <summary>The request speaks a version of a resumable-upload protocol this server does not (tus <c>Tus-Resumable</c>, <c>Upload-Draft-Interop-Version</c>).</summary>
    UnsupportedProtocolVersion,

    /// <summary>
    /// A URL to fetch a file straight from the store was asked for, but this server serves the bytes
    /// itself (the local disk, or an object store without <c>Storage:S3:RedirectDownloads</c>).
    /// </summary>
    DirectDownloadUnavailable,

    /// <summary>The request body is of a type the endpoint does not take (REST 415: a form where a file body is expected, tus without <c>application/offset+octet-stream</c>).</summary>
    UnsupportedMediaType,

    /// <summary>Nothing answers this path (REST), or this service or method (gRPC).</summary>
    RouteNotFound,

    /// <summary>The path exists, but not for this HTTP method (the answer's <c>Allow</c> lists the ones it takes).</summary>
    MethodNotAllowed,

    /// <summary>The server failed in a way it did not foresee; the failure is logged, the client learns nothing of it.</summary>
    InternalError,

    /// <summary>
    /// A folder's quota (<c>Quotas:N</c>) has no room for the upload: its stored files and the
    /// reservations of unfinished uploads leave less than it needs. Nothing was stored.
    /// </summary>
    QuotaExceeded,

    /// <summary>
    /// The caller (or the server as a whole) has as many upload sessions in progress as it may
    /// (<c>Uploads:MaxSessionsPerOwner</c>, <c>Uploads:MaxSessions</c>): complete or cancel one first.
    /// </summary>
    TooManyUploads,

    /// <summary>Another request cancelled the upload session while this one was appending to it; nothing more is kept.</summary>
    UploadCancelled,
    /// <summary>The pre-upload or pre-commit hook refused the upload (<c>Hooks:PreUpload</c>, <c>Hooks:PreCommit</c>); the message is the hook's.</summary>
    UploadRejected,

    /// <summary>The pre-upload or pre-commit hook did not answer in time, so the upload was refused (fail closed); try again later.</summary>
    HookUnavailable,
}

/// <summary>The wire spelling of <see cref="ErrorReason"/>: SCREAMING_SNAKE_CASE, part of the contract.</summary>
public static class ErrorReasons
{
    private static readonly string[] Codes = [.. Enum.GetValues<ErrorReason>().Select(ToSnake)];

    /// <summary>"FILE_NOT_FOUND" for <see cref="ErrorReason.FileNotFound"/>, and so on.</summary>
    public static string Code(this ErrorReason reason) => Codes[(int)reason];

    private static string ToSnake(ErrorReason reason)
    {
        var name = reason.ToString();
        var text = new System.Text.StringBuilder(name.Length + 8);
        for (var i = 0; i < name.Length; i++)
        {
            if (i > 0 && char.IsUpper(name[i]))
            {
                text.Append('_');
            }

            text.Append(char.ToUpperInvariant(name[i]));
        }

        return text.ToString();
    }
}
