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

    /// <summary>401/403, UNAUTHENTICATED / PERMISSION_DENIED: missing, wrong or insufficient API key or signed link.</summary>
    public const int Unauthorized = 4;

    /// <summary>413 (over the size limit) or 507 (the server's disk is full); gRPC RESOURCE_EXHAUSTED.</summary>
    public const int TooLarge = 5;

    /// <summary>The SHA-256 of the bytes differs from what the other side announced.</summary>
    public const int DigestMismatch = 6;

    /// <summary>The server could not be reached, or the connection broke or stalled mid-transfer.</summary>
    public const int ConnectionLost = 7;

    /// <summary>409, 412 or 416; gRPC ALREADY_EXISTS, FAILED_PRECONDITION, OUT_OF_RANGE: the file exists (--no-overwrite) or changed.</summary>
    public const int Conflict = 8;

    /// <summary>The server does not offer the chosen protocol at that address (gRPC UNIMPLEMENTED, or a port without HTTP/2).</summary>
    public const int ProtocolUnavailable = 9;

    /// <summary>Interrupted with Ctrl+C (128 + SIGINT, as shells report it).</summary>
    public const int Interrupted = 130;

    /// <summary>The exit code of a library error: the same for REST and gRPC.</summary>
    public static int For(FileTransferErrorKind kind) => kind switch
    {
        FileTransferErrorKind.InvalidRequest => Usage,
        FileTransferErrorKind.NotFound => NotFound,
        FileTransferErrorKind.Unauthenticated or FileTransferErrorKind.PermissionDenied => Unauthorized,
        FileTransferErrorKind.TooLarge or FileTransferErrorKind.InsufficientStorage => TooLarge,
        FileTransferErrorKind.DigestMismatch => DigestMismatch,
        FileTransferErrorKind.ConnectionLost => ConnectionLost,
        FileTransferErrorKind.AlreadyExists or FileTransferErrorKind.PreconditionFailed or FileTransferErrorKind.Conflict
            or FileTransferErrorKind.RangeNotSatisfiable => Conflict,
        FileTransferErrorKind.ProtocolUnavailable => ProtocolUnavailable,
        _ => Other,
    };
}
