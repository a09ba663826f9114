using FileTransfer.Client;

namespace FileTransfer.Cli;

/// <summary>
/// Process exit codes scripts can rely on. The numbers are part of the tool's contract
/// (README "Exit codes"): add new ones, never renumber.
/// </summary>
internal static class ExitCodes
{
    public const int Ok = 0;

    /// <summary>Anything not listed below, e.g. a 5xx other than 507, or rate limited.</summary>
    public const int Other = 1;

    /// <summary>Bad command line, or the server refused the name (400).</summary>
    public const int Usage = 2;

    /// <summary>404 / NOT_FOUND: no such file.</summary>
    public const int NotFound = 3;

    /// <summary>UNAUTHENTICATED: a missing or wrong API key or signed link.</summary>
    public const int Unauthorized = 4;

    /// <summary>FILE_TOO_LARGE, TOO_MANY_FILES or STORAGE_FULL: over the size limit, or the server's disk is full.</summary>
    public const int TooLarge = 5;

    /// <summary>The bytes differ from what the other side announced (SHA-256, length or a request's checksum).</summary>
    public const int DigestMismatch = 6;

    /// <summary>The server could not be reached, or the connection broke or stalled mid-transfer.</summary>
    public const int ConnectionLost = 7;

    /// <summary>The file exists (--no-overwrite) or changed, the name is a folder, an offset past the end, or an upload session's state.</summary>
    public const int Conflict = 8;

    /// <summary>The server does not offer the chosen protocol at that address (gRPC UNIMPLEMENTED, or a port without HTTP/2).</summary>
    public const int ProtocolUnavailable = 9;

    /// <summary>PERMISSION_DENIED or UPLOAD_REJECTED: a valid credential that does not grant this, or the server's upload policy refused it.</summary>
    public const int Forbidden = 10;

    /// <summary>QUOTA_EXCEEDED: the upload would take a folder past its quota.</summary>
    public const int QuotaExceeded = 11;

    /// <summary>STORAGE_UNAVAILABLE or HOOK_UNAVAILABLE: the server is up, what it depends on is not; retry later.</summary>
    public const int Unavailable = 12;

    /// <summary>TOO_MANY_UPLOADS: as many unfinished upload sessions as the server allows.</summary>
    public const int TooManyUploads = 13;

    /// <summary>Interrupted with Ctrl+C (128 + SIGINT, as shells report it).</summary>
    public const int Interrupted = 130;

    /// <summary>The exit code of a library error: the same for REST and gRPC (docs/cli.md "Exit codes", checked by a test).</summary>
    public static int For(FileTransferErrorKind kind) => kind switch
    {
        FileTransferErrorKind.InvalidRequest => Usage,
        FileTransferErrorKind.NotFound or FileTransferErrorKind.UploadNotFound or FileTransferErrorKind.UploadExpired => NotFound,
        FileTransferErrorKind.Unauthenticated => Unauthorized,
        FileTransferErrorKind.TooLarge or FileTransferErrorKind.InsufficientStorage => TooLarge,
        FileTransferErrorKind.DigestMismatch => DigestMismatch,
        FileTransferErrorKind.ConnectionLost => ConnectionLost,
        FileTransferErrorKind.AlreadyExists or FileTransferErrorKind.PreconditionFailed or FileTransferErrorKind.Conflict
            or FileTransferErrorKind.RangeNotSatisfiable or FileTransferErrorKind.UploadOffsetMismatch or FileTransferErrorKind.UploadBusy
            or FileTransferErrorKind.UploadCompleted => Conflict,
        FileTransferErrorKind.ProtocolUnavailable => ProtocolUnavailable,
        FileTransferErrorKind.PermissionDenied or FileTransferErrorKind.UploadRejected => Forbidden,
        FileTransferErrorKind.QuotaExceeded => QuotaExceeded,
        FileTransferErrorKind.ServiceUnavailable => Unavailable,
        FileTransferErrorKind.TooManyUploads => TooManyUploads,
        _ => Other,
    };
}
