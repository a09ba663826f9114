namespace FileTransfer.Client;

/// <summary>
/// What went wrong, the same for REST and gRPC: the server's reason (REST problem <c>reason</c>, gRPC
/// <c>ErrorInfo.reason</c>) maps to one kind in one table for both protocols
/// (<see cref="FileTransferException.Reason"/> keeps it); the status only decides when a response has no reason.
/// </summary>
public enum FileTransferErrorKind
{
    /// <summary>Anything else: a server error (reason <c>INTERNAL_ERROR</c>), or a reason this client does not know (REST 5xx without a reason, gRPC INTERNAL, UNKNOWN).</summary>
    ServerError,

    /// <summary>The server refused the request, e.g. a file name that could leave the storage root (reasons <c>INVALID_FILE_NAME</c>, <c>INVALID_RANGE</c>, <c>INVALID_UPLOAD_STREAM</c>, <c>INVALID_PAGE_REQUEST</c>, <c>INVALID_LINK_REQUEST</c>, <c>MALFORMED_MESSAGE</c>, <c>UNSUPPORTED_MEDIA_TYPE</c>).</summary>
    InvalidRequest,

    /// <summary>No or an unknown API key, or a bad signed link (reason <c>UNAUTHENTICATED</c>).</summary>
    Unauthenticated,

    /// <summary>A valid credential that does not grant the operation: the key lacks the scope or the folder, or the link is for another file or method (reason <c>PERMISSION_DENIED</c>).</summary>
    PermissionDenied,

    /// <summary>No such file (reason <c>FILE_NOT_FOUND</c>).</summary>
    NotFound,

    /// <summary>An upload that must not replace found an existing file (reason <c>FILE_EXISTS</c>).</summary>
    AlreadyExists,

    /// <summary>The file changed since the ETag the request carried (reason <c>ETAG_MISMATCH</c>).</summary>
    PreconditionFailed,

    /// <summary>The name is a folder, or a folder in the name is a file (reason <c>NAME_CONFLICT</c>; also <c>DIRECT_DOWNLOAD_UNAVAILABLE</c>).</summary>
    Conflict,

    /// <summary>An offset past the end of the file (reason <c>OFFSET_PAST_END</c>).</summary>
    RangeNotSatisfiable,

    /// <summary>The file is larger than the server accepts, or a form carries too many files (reasons <c>FILE_TOO_LARGE</c>, <c>TOO_MANY_FILES</c>).</summary>
    TooLarge,

    /// <summary>The server's storage is full (reason <c>STORAGE_FULL</c>).</summary>
    InsufficientStorage,

    /// <summary>Too many requests; see <see cref="FileTransferException.RetryAfter"/> (reason <c>RATE_LIMITED</c>).</summary>
    RateLimited,

    /// <summary>The bytes differ from what was announced: a download checked here, or an upload the server refused for its SHA-256, its length or a request's checksum (reasons <c>DIGEST_MISMATCH</c>, <c>SIZE_MISMATCH</c>, <c>CHECKSUM_MISMATCH</c>).</summary>
    DigestMismatch,

    /// <summary>The server cannot be reached, or the connection broke or stalled mid-transfer (gRPC UNAVAILABLE without a reason; reason <c>UPLOAD_IDLE</c>: the server stopped waiting for an upload's bytes).</summary>
    ConnectionLost,

    /// <summary>The server does not offer the chosen protocol at that address (gRPC UNIMPLEMENTED, no HTTP/2 on the port, or reasons <c>UNSUPPORTED_PROTOCOL_VERSION</c>, <c>ROUTE_NOT_FOUND</c>, <c>METHOD_NOT_ALLOWED</c>).</summary>
    ProtocolUnavailable,

    /// <summary>The upload would take a folder past its quota (reason <c>QUOTA_EXCEEDED</c>); nothing was stored.</summary>
    QuotaExceeded,

    /// <summary>The server is up but something it depends on is not, its storage or an upload hook (reasons <c>STORAGE_UNAVAILABLE</c>, <c>HOOK_UNAVAILABLE</c>): retry later.</summary>
    ServiceUnavailable,

    /// <summary>The caller (or the server) has as many unfinished upload sessions as it may (reason <c>TOO_MANY_UPLOADS</c>): finish or cancel some, or wait for them to expire.</summary>
    TooManyUploads,

    /// <summary>The server's upload policy (its pre-upload or pre-commit hook) refused the upload (reason <c>UPLOAD_REJECTED</c>); the detail carries the hook's message.</summary>
    UploadRejected,

    /// <summary>There is no such upload session: never created, cancelled, or removed (reasons <c>UPLOAD_NOT_FOUND</c>, <c>UPLOAD_CANCELLED</c>).</summary>
    UploadNotFound,

    /// <summary>The upload session expired and its bytes were removed (reason <c>UPLOAD_EXPIRED</c>).</summary>
    UploadExpired,

    /// <summary>The bytes were sent for another offset than the session's durable one (reason <c>UPLOAD_OFFSET_MISMATCH</c>): ask for its status and continue from there.</summary>
    UploadOffsetMismatch,

    /// <summary>Another request is appending to the upload session (reason <c>UPLOAD_BUSY</c>): one writer at a time.</summary>
    UploadBusy,

    /// <summary>The upload session is complete; nothing more can be appended (reason <c>UPLOAD_COMPLETED</c>).</summary>
    UploadCompleted,
}
