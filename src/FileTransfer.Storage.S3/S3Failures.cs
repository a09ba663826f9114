using System.Net;
using System.Net.Sockets;
using Amazon.Runtime;
using Amazon.S3;
using FileTransfer.Core;

namespace FileTransfer.Storage.S3;

/// <summary>
/// What the store's answers mean to the backend, and how a store that fails reaches clients. The
/// mapping happens once, for every request of the backend's client (<see cref="StoreCallHandler"/>):
/// a store that fails, does not answer within <see cref="S3StorageOptions.TimeoutSeconds"/> or cannot
/// be reached becomes <see cref="ErrorReason.StorageUnavailable"/>; only the store's answers that the
/// backend acts on (<see cref="IsAnswer"/>) reach its code as <see cref="AmazonS3Exception"/>s.
/// </summary>
internal static class S3Failures
{
    public static bool IsNotFound(AmazonS3Exception exception) => exception.StatusCode == HttpStatusCode.NotFound;

    public static bool IsPreconditionFailed(AmazonS3Exception exception) => exception.StatusCode == HttpStatusCode.PreconditionFailed;

    /// <summary>
    /// The store's answers that mean something to the backend: no such key or bucket (404), a
    /// condition that failed (412), two conditional writes of one key at once or a bucket that
    /// exists (409). Every other error answer (403 refused credentials, 5xx) is the store failing.
    /// </summary>
    public static bool IsAnswer(AmazonServiceException exception) =>
        exception.StatusCode is HttpStatusCode.NotFound or HttpStatusCode.PreconditionFailed or HttpStatusCode.Conflict;

    /// <summary>
    /// True for a failure of the store or of the way to it: an error answer that is not one of
    /// <see cref="IsAnswer"/>, a refused or broken connection, a timeout, as opposed to the caller
    /// giving up (<paramref name="callerToken"/>) or a defect of the request itself.
    /// </summary>
    public static bool IsStoreFailure(Exception exception, CancellationToken callerToken) => exception switch
    {
        AmazonServiceException service => !IsAnswer(service),
        AmazonClientException or HttpRequestException or IOException or SocketException or TimeoutException => true,
        OperationCanceledException => !callerToken.IsCancellationRequested,
        _ => false,
    };

    /// <summary>True for the refusal <see cref="Unavailable"/> makes (or any other the store's unavailability caused).</summary>
    public static bool IsUnavailable(Exception exception) => exception is FileTransferException { Reason: ErrorReason.StorageUnavailable };

    /// <summary>
    /// The refusal a client sees (503, gRPC UNAVAILABLE: it may retry). Only the store's error code
    /// is shown: an SDK message can name hosts and keys, never a credential, but it is not the client's business.
    /// </summary>
    public static FileTransferException Unavailable(Exception exception, TimeSpan? timedOutAfter = null) =>
        Failures.Unavailable(
            timedOutAfter is { } timeout ? $"The object store did not answer within {timeout.TotalSeconds:0.#} s. Try again."
            : exception is AmazonServiceException { ErrorCode: { Length: > 0 } code } ? $"The object store failed ({code}). Try again."
            : "The object store did not answer. Try again.",
            exception);
}
