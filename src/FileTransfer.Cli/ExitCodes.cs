namespace FileTransfer.Cli;

/// <summary>
/// Process exit codes scripts can rely on. The numbers are part of the tool's contract
/// (README "Exit codes"): add new ones, never renumber.
/// </summary>
internal static class ExitCodes
{
    public const int Ok = 0;

    /// <summary>Anything not listed below, e.g. a 5xx other than 507.</summary>
    public const int Other = 1;

    /// <summary>Bad command line, or the server refused the name (400).</summary>
    public const int Usage = 2;

    /// <summary>404: no such file.</summary>
    public const int NotFound = 3;

    /// <summary>401/403: missing, wrong or insufficient API key or signed link.</summary>
    public const int Unauthorized = 4;

    /// <summary>413 (over the size limit) or 507 (the server's disk is full).</summary>
    public const int TooLarge = 5;

    /// <summary>The SHA-256 of the bytes differs from what the other side announced.</summary>
    public const int DigestMismatch = 6;

    /// <summary>The server could not be reached, or the connection broke or stalled mid-transfer.</summary>
    public const int ConnectionLost = 7;

    /// <summary>409, 412 or 416: the file exists (--no-overwrite) or changed.</summary>
    public const int Conflict = 8;

    /// <summary>The requested protocol is not available in this build (gRPC).</summary>
    public const int ProtocolUnavailable = 9;

    /// <summary>Interrupted with Ctrl+C (128 + SIGINT, as shells report it).</summary>
    public const int Interrupted = 130;
}
