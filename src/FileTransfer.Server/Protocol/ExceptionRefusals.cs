using FileTransfer.Core;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// The refusal an exception thrown while answering a request stands for, one mapping for the REST
/// error filter and the exception handler (the gRPC twin is the error interceptor): a core refusal
/// is itself; a read the storage failed (a version an object store no longer holds, a store that
/// stopped answering) is <see cref="ErrorReason.StorageUnavailable"/>;
/// Kestrel's refusals of a body are what Kestrel refused it for. Anything else is no refusal but a
/// failure of the server's own.
/// </summary>
internal static class ExceptionRefusals
{
    public static FileTransferException? Of(Exception exception) => exception switch
    {
        FileTransferException refused => refused,
        StorageReadException failed => failed.ToRefusal(),
        BadHttpRequestException bad => new FileTransferException(ReasonOf(bad), bad.Message),
        _ => null,
    };

    /// <summary>The client went away (disconnect, reset, cancel): nobody is left to answer.</summary>
    public static bool IsClientAbort(Exception exception, HttpContext context) =>
        exception is OperationCanceledException or IOException && context.RequestAborted.IsCancellationRequested;

    // Kestrel tells which limit a body broke by the status it would answer with, set where it threw:
    // too large (MaxRequestBodySize), too slow (MinRequestBodyDataRate), or malformed / cut short.
    private static ErrorReason ReasonOf(BadHttpRequestException exception) => exception.StatusCode switch
    {
        StatusCodes.Status413PayloadTooLarge => ErrorReason.FileTooLarge,
        StatusCodes.Status408RequestTimeout => ErrorReason.UploadIdle,
        _ => ErrorReason.InvalidUploadStream,
    };
}
