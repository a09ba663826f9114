using System.Net;
using Amazon.Runtime;
using Amazon.S3;
using FileTransfer.Core;

namespace FileTransfer.Storage.S3;

/// <summary>What the store's answers mean to the backend, and how a store that fails reaches clients.</summary>
internal static class S3Failures
{
    public static bool IsNotFound(AmazonS3Exception exception) => exception.StatusCode == HttpStatusCode.NotFound;

    public static bool IsPreconditionFailed(AmazonS3Exception exception) => exception.StatusCode == HttpStatusCode.PreconditionFailed;

    /// <summary>
    /// True for a failure of the store or of the way to it (an error answer, a refused or broken
    /// connection, the SDK's own timeout), as opposed to the caller giving up (<paramref name="cancellationToken"/>).
    /// </summary>
    public static bool IsStoreFailure(Exception exception, CancellationToken cancellationToken) => exception switch
    {
        AmazonClientException or HttpRequestException or IOException => true,
        OperationCanceledException => !cancellationToken.IsCancellationRequested,
        _ => false,
    };

    /// <summary>
    /// <see cref="IsStoreFailure"/>, or any error answer of the store (an <see cref="AmazonServiceException"/>,
    /// which is not an <see cref="AmazonClientException"/>): for the upload-session store, whose every
    /// failure reaches clients as the store being unavailable.
    /// </summary>
    public static bool IsStoreFailureOrError(Exception exception, CancellationToken cancellationToken) =>
        exception is AmazonServiceException || IsStoreFailure(exception, cancellationToken);

    /// <summary>
    /// The refusal a client sees (503, gRPC UNAVAILABLE: it may retry). Only the store's error code
    /// is shown: an SDK message can name hosts and keys, never a credential, but it is not the client's business.
    /// </summary>
    public static FileTransferException Unavailable(Exception exception) =>
        Failures.Unavailable(
            exception is AmazonServiceException { ErrorCode: { Length: > 0 } code }
                ? $"The object store failed ({code}). Try again."
                : "The object store did not answer. Try again.",
            exception);
}
