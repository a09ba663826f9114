using FileTransfer.Core;
using Google.Protobuf.WellKnownTypes;
using Google.Rpc;
using Grpc.Core;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// The one mapping from the core's <see cref="ErrorReason"/> to gRPC status codes. Each status
/// carries the core's message (never a server path, an OS message or a stack trace) and a
/// <c>google.rpc.ErrorInfo</c> detail (domain <see cref="Domain"/>) whose reason is
/// <see cref="ErrorReasons.Code"/>, the same string REST puts in the problem's <c>reason</c>.
/// </summary>
internal static class GrpcErrors
{
    public const string Domain = "filetransfer.v1";

    public static StatusCode CodeFor(ErrorReason reason) => reason switch
    {
        ErrorReason.InvalidFileName or ErrorReason.InvalidRange or ErrorReason.InvalidUploadStream or ErrorReason.InvalidPageRequest or ErrorReason.InvalidLinkRequest or ErrorReason.MalformedMessage => StatusCode.InvalidArgument,
        ErrorReason.FileNotFound => StatusCode.NotFound,
        ErrorReason.OffsetPastEnd => StatusCode.OutOfRange,
        ErrorReason.FileTooLarge or ErrorReason.StorageFull or ErrorReason.RateLimited or ErrorReason.TooManyFiles or ErrorReason.QuotaExceeded => StatusCode.ResourceExhausted,
        ErrorReason.DigestMismatch or ErrorReason.SizeMismatch => StatusCode.DataLoss,
        ErrorReason.FileExists => StatusCode.AlreadyExists,
        ErrorReason.EtagMismatch or ErrorReason.NameConflict or ErrorReason.DirectDownloadUnavailable => StatusCode.FailedPrecondition,
        ErrorReason.Unauthenticated => StatusCode.Unauthenticated,
        ErrorReason.PermissionDenied => StatusCode.PermissionDenied,
        ErrorReason.StorageUnavailable => StatusCode.Unavailable,
        ErrorReason.UploadIdle => StatusCode.DeadlineExceeded,

        // Resumable uploads: an unknown or expired session is gone; the offset is the client's to
        // correct from GetUploadStatus (google.bytestream answers a wrong write_offset the same way);
        // a second writer should retry once the first ends (ABORTED: "retry at a higher level").
        ErrorReason.UploadNotFound or ErrorReason.UploadExpired => StatusCode.NotFound,
        ErrorReason.UploadOffsetMismatch or ErrorReason.UploadCompleted => StatusCode.FailedPrecondition,
        ErrorReason.UploadBusy => StatusCode.Aborted,
        ErrorReason.ChecksumMismatch => StatusCode.DataLoss,
        ErrorReason.UnsupportedProtocolVersion => StatusCode.InvalidArgument,
        ErrorReason.UploadRejected => StatusCode.PermissionDenied,
        ErrorReason.HookUnavailable => StatusCode.Unavailable,
        ErrorReason.TooManyUploads => StatusCode.ResourceExhausted,
        ErrorReason.UploadCancelled => StatusCode.Aborted,

        // An unknown service or method (REST: no route, or not this method); a request in a form
        // gRPC never sends; a failure the server did not foresee, with the status Grpc.AspNetCore
        // itself gives an exception from a handler.
        ErrorReason.RouteNotFound or ErrorReason.MethodNotAllowed => StatusCode.Unimplemented,
        ErrorReason.UnsupportedMediaType => StatusCode.InvalidArgument,
        ErrorReason.InternalError => StatusCode.Unknown,
        _ => StatusCode.Internal,
    };

    /// <summary>ErrorInfo metadata keys of an offset mismatch: the session's offset and the one sent.</summary>
    public const string ExpectedOffsetKey = "expected_offset";

    public const string ProvidedOffsetKey = "provided_offset";

    /// <summary>The status a core failure means, ready to throw.</summary>
    public static RpcException From(FileTransferException exception)
    {
        var message = exception.Reason == ErrorReason.FileExists ? exception.Message + " Set overwrite to replace it." : exception.Message;
        var status = Status(exception.Reason, message, exception.RetryAfter);
        if (exception.Quota is { } quota)
        {
            // The usage and limit of the quota that refused, as GetUsage reports them.
            var info = status.Details[0].Unpack<ErrorInfo>();
            info.Metadata["path"] = quota.Path;
            info.Metadata["used_bytes"] = quota.UsedBytes.ToString(System.Globalization.CultureInfo.InvariantCulture);
            info.Metadata["max_bytes"] = quota.MaxBytes.ToString(System.Globalization.CultureInfo.InvariantCulture);
            info.Metadata["used_files"] = quota.UsedFiles.ToString(System.Globalization.CultureInfo.InvariantCulture);
            if (quota.MaxFiles is { } maxFiles)
            {
                info.Metadata["max_files"] = maxFiles.ToString(System.Globalization.CultureInfo.InvariantCulture);
            }

            status.Details[0] = Any.Pack(info);
        }

        if (exception.ExpectedOffset is { } expected)
        {
            var info = status.Details[0].Unpack<ErrorInfo>();
            info.Metadata[ExpectedOffsetKey] = expected.ToString(System.Globalization.CultureInfo.InvariantCulture);
            if (exception.ProvidedOffset is { } provided)
            {
                info.Metadata[ProvidedOffsetKey] = provided.ToString(System.Globalization.CultureInfo.InvariantCulture);
            }

            status.Details[0] = Any.Pack(info);
        }

        return status.ToRpcException();
    }

    public static RpcException Create(ErrorReason reason, string message, TimeSpan? retryAfter = null) =>
        Status(reason, message, retryAfter).ToRpcException();

    /// <summary>
    /// A status with an ErrorInfo detail (and a RetryInfo where <see cref="RetryAdvice"/> says the
    /// reason is transient, with <paramref name="retryAfter"/> when the refuser measured it), as the
    /// status proto carries it in <c>grpc-status-details-bin</c>.
    /// </summary>
    public static Google.Rpc.Status Status(ErrorReason reason, string message, TimeSpan? retryAfter = null)
    {
        retryAfter = RetryAdvice.For(reason, retryAfter);
        var status = new Google.Rpc.Status
        {
            Code = (int)CodeFor(reason),
            Message = message,
            Details = { Any.Pack(new ErrorInfo { Reason = reason.Code(), Domain = Domain }) },
        };
        if (retryAfter is { } delay)
        {
            status.Details.Add(Any.Pack(new RetryInfo { RetryDelay = Duration.FromTimeSpan(delay) }));
        }

        return status;
    }
}
