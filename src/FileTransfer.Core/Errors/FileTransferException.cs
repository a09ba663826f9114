namespace FileTransfer.Core;

/// <summary>
/// The one error type of the core: an operation refused or failed for <see cref="Reason"/>, with a
/// message the client can act on (never a server path, an OS message or a stack trace). Nothing an
/// operation that throws it was asked to store became visible.
/// </summary>
public sealed class FileTransferException(ErrorReason reason, string message, Exception? inner = null)
    : Exception(message, inner)
{
    public ErrorReason Reason { get; } = reason;

    /// <summary>For a retryable refusal (<see cref="ErrorReason.RateLimited"/>): how long to wait.</summary>
    public TimeSpan? RetryAfter { get; init; }

    /// <summary>
    /// For <see cref="ErrorReason.UploadOffsetMismatch"/>: the session's durable offset, where the
    /// client must resume (REST <c>Upload-Offset</c> and the problem's <c>expected-offset</c>, gRPC
    /// ErrorInfo metadata <c>expected_offset</c>).
    /// </summary>
    public long? ExpectedOffset { get; init; }

    /// <summary>For <see cref="ErrorReason.UploadOffsetMismatch"/>: the offset the client sent.</summary>
    public long? ProvidedOffset { get; init; }

    /// <summary>For <see cref="ErrorReason.QuotaExceeded"/>: the quota that refused, its usage and its limits.</summary>
    public QuotaUsage? Quota { get; init; }
}
