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
}
