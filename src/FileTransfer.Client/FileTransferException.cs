namespace FileTransfer.Client;

/// <summary>
/// The one error type of <see cref="FileTransferClient"/>, whichever protocol it uses. Cancellation
/// through the caller's token is an <see cref="OperationCanceledException"/> instead.
/// </summary>
public sealed class FileTransferException : Exception
{
    /// <summary>Creates an error of <paramref name="kind"/>.</summary>
    /// <param name="kind">What went wrong.</param>
    /// <param name="message">A sentence for people, with the server's detail when there is one.</param>
    /// <param name="status">The protocol's status, e.g. <c>404</c> or <c>NOT_FOUND</c>; null when the server did not answer.</param>
    /// <param name="detail">The server's own explanation (REST problem <c>detail</c>, gRPC status detail).</param>
    /// <param name="innerException">The underlying exception.</param>
    public FileTransferException(FileTransferErrorKind kind, string message, string? status = null, string? detail = null, Exception? innerException = null)
        : base(message, innerException)
    {
        Kind = kind;
        Status = status;
        Detail = detail;
    }

    /// <summary>What went wrong, the same for REST and gRPC.</summary>
    public FileTransferErrorKind Kind { get; }

    /// <summary>The protocol's status as text: the HTTP status code (<c>404</c>) or the gRPC code (<c>NOT_FOUND</c>); null when the server did not answer.</summary>
    public string? Status { get; }

    /// <summary>The server's explanation, when it gave one.</summary>
    public string? Detail { get; }

    /// <summary>
    /// The server's stable reason for the failure, e.g. <c>FILE_NOT_FOUND</c> or <c>QUOTA_EXCEEDED</c>
    /// (REST problem <c>reason</c>, gRPC <c>ErrorInfo.reason</c>: the same string); null when the
    /// response carried none. <see cref="Kind"/> is decided from it.
    /// </summary>
    public string? Reason { get; init; }

    /// <summary>When <see cref="Kind"/> is <see cref="FileTransferErrorKind.RateLimited"/>: how long the server asked to wait, if it said.</summary>
    public TimeSpan? RetryAfter { get; init; }
}
