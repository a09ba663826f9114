namespace FileTransfer.Client;

/// <summary>What went wrong, the same for REST and gRPC (the REST status and gRPC code each maps to one kind).</summary>
public enum FileTransferErrorKind
{
    /// <summary>Anything else: a server error (REST 5xx other than 507, gRPC INTERNAL, UNKNOWN).</summary>
    ServerError,

    /// <summary>The server refused the request, e.g. a file name that could leave the storage root (REST 400, gRPC INVALID_ARGUMENT).</summary>
    InvalidRequest,

    /// <summary>No or an unknown API key, or a bad signed link (REST 401, gRPC UNAUTHENTICATED).</summary>
    Unauthenticated,

    /// <summary>The key lacks the scope, or the link is for another file or method (REST 403, gRPC PERMISSION_DENIED).</summary>
    PermissionDenied,

    /// <summary>No such file (REST 404, gRPC NOT_FOUND).</summary>
    NotFound,

    /// <summary>An upload that must not replace found an existing file (REST 412 to <c>If-None-Match: *</c>, gRPC ALREADY_EXISTS).</summary>
    AlreadyExists,

    /// <summary>The file changed since the ETag the request carried (REST 412, gRPC FAILED_PRECONDITION).</summary>
    PreconditionFailed,

    /// <summary>The name is a folder, or a folder in the name is a file (REST 409).</summary>
    Conflict,

    /// <summary>An offset past the end of the file (REST 416, gRPC OUT_OF_RANGE).</summary>
    RangeNotSatisfiable,

    /// <summary>The file is larger than the server accepts (REST 413, gRPC RESOURCE_EXHAUSTED).</summary>
    TooLarge,

    /// <summary>The server's storage is full (REST 507, gRPC RESOURCE_EXHAUSTED).</summary>
    InsufficientStorage,

    /// <summary>Too many requests; see <see cref="FileTransferException.RetryAfter"/> (REST 429, gRPC RESOURCE_EXHAUSTED with a retry push-back).</summary>
    RateLimited,

    /// <summary>The SHA-256 of the bytes differs from the announced one (a download checked here, or an upload the server refused: REST 400, gRPC DATA_LOSS).</summary>
    DigestMismatch,

    /// <summary>The server cannot be reached, or the connection broke or stalled mid-transfer (gRPC UNAVAILABLE).</summary>
    ConnectionLost,

    /// <summary>The server does not offer the chosen protocol at that address (gRPC UNIMPLEMENTED, or no HTTP/2 on the port).</summary>
    ProtocolUnavailable,
}
