using FileTransfer.Core;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// The refusal an exception thrown while answering a request stands for, one mapping for the REST
/// error filter and the exception handler (the gRPC twin is the error interceptor): a core refusal
/// is itself; a read the storage failed (a version an object store no longer holds, a store that
/// stopped answering) is <see cref="ErrorReason.StorageUnavailable"/>;
/// Kestrel's refusals of a body are what Kestrel refused it for; an endpoint's parameters or JSON body
/// that could not be read are <see cref="ErrorReason.MalformedMessage"/> (a body of another type
/// <see cref="ErrorReason.UnsupportedMediaType"/>). Anything else is no refusal but a failure of the
/// server's own.
/// </summary>
internal static class ExceptionRefusals
{
    public static FileTransferException? Of(Exception exception) => exception switch
    {
        FileTransferException refused => refused,
        StorageReadException failed => failed.ToRefusal(),
        BadHttpRequestException bad when IsBindingFailure(bad) => new FileTransferException(BindingReasonOf(bad), bad.Message),
        BadHttpRequestException bad => new FileTransferException(ReasonOf(bad), bad.Message),
        _ => null,
    };

    /// <summary>The client went away (disconnect, reset, cancel): nobody is left to answer.</summary>
    public static bool IsClientAbort(Exception exception, HttpContext context) =>
        exception is OperationCanceledException or IOException && context.RequestAborted.IsCancellationRequested;

    // Kestrel throws its own subclass (kept for compatibility); the endpoints' parameter binding throws
    // the base type itself (RouteHandlerOptions.ThrowOnBadRequest), with 415 for a body that is not JSON.
    private static bool IsBindingFailure(BadHttpRequestException exception) => exception.GetType() == typeof(BadHttpRequestException);

    private static ErrorReason BindingReasonOf(BadHttpRequestException exception) =>
        exception.StatusCode == StatusCodes.Status415UnsupportedMediaType ? ErrorReason.UnsupportedMediaType : ErrorReason.MalformedMessage;

    // Kestrel tells which limit a body broke by the status it would answer with, set where it threw:
    // too large (MaxRequestBodySize), too slow (MinRequestBodyDataRate), or malformed / cut short.
    private static ErrorReason ReasonOf(BadHttpRequestException exception) => exception.StatusCode switch
    {
        StatusCodes.Status413PayloadTooLarge => ErrorReason.FileTooLarge,
        StatusCodes.Status408RequestTimeout => ErrorReason.UploadIdle,
        _ => ErrorReason.InvalidUploadStream,
    };
}
