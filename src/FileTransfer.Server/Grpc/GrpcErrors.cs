using FileTransfer.Server.Storage;
using Google.Protobuf.WellKnownTypes;
using Google.Rpc;
using Grpc.Core;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// The one mapping from the core's refusals to gRPC status codes. Each carries a short message
/// the client can act on (never a server path, an OS message or a stack trace) and a
/// <c>google.rpc.ErrorInfo</c> detail whose reason (<see cref="Reasons"/>) is stable for programs to switch on.
/// </summary>
internal static class GrpcErrors
{
    public const string Domain = "filetransfer.v1";

    public static RpcException InvalidName(PathRejection rejection) =>
        Create(StatusCode.InvalidArgument, Reasons.InvalidFileName, rejection.Reason);

    public static RpcException InvalidArgument(string reason, string message) =>
        Create(StatusCode.InvalidArgument, reason, message);

    public static RpcException NotFound(string name) =>
        Create(StatusCode.NotFound, Reasons.FileNotFound, $"There is no file named '{name}'.");

    public static RpcException OffsetPastEnd(long offset, long size) =>
        Create(StatusCode.OutOfRange, Reasons.OffsetPastEnd, $"The offset {offset} is past the end of the file ({size} bytes).");

    public static RpcException From(UploadException exception) => exception.Error switch
    {
        UploadError.TooLarge => Create(StatusCode.ResourceExhausted, Reasons.FileTooLarge, exception.Message),
        UploadError.DiskFull => Create(StatusCode.ResourceExhausted, Reasons.StorageFull, exception.Message),
        UploadError.DigestMismatch => Create(StatusCode.DataLoss, Reasons.DigestMismatch, exception.Message),
        UploadError.LengthMismatch => Create(StatusCode.DataLoss, Reasons.SizeMismatch, exception.Message),
        UploadError.AlreadyExists => Create(StatusCode.AlreadyExists, Reasons.FileExists, exception.Message + " Set overwrite to replace it."),
        UploadError.PreconditionFailed => Create(StatusCode.FailedPrecondition, Reasons.EtagMismatch, exception.Message),
        UploadError.NameConflict => Create(StatusCode.FailedPrecondition, Reasons.NameConflict, exception.Message),
        _ => Create(StatusCode.Internal, "INTERNAL", "The request failed; nothing was stored."),
    };

    /// <summary>A status with an ErrorInfo detail, as the status proto carries it in <c>grpc-status-details-bin</c>.</summary>
    public static Google.Rpc.Status Status(StatusCode code, string reason, string message, TimeSpan? retryAfter = null)
    {
        var status = new Google.Rpc.Status
        {
            Code = (int)code,
            Message = message,
            Details = { Any.Pack(new ErrorInfo { Reason = reason, Domain = Domain }) },
        };
        if (retryAfter is { } delay)
        {
            status.Details.Add(Any.Pack(new RetryInfo { RetryDelay = Duration.FromTimeSpan(delay) }));
        }

        return status;
    }

    private static RpcException Create(StatusCode code, string reason, string message) =>
        Status(code, reason, message).ToRpcException();

    /// <summary>The ErrorInfo reasons; part of the contract, like the status codes.</summary>
    public static class Reasons
    {
        public const string InvalidFileName = "INVALID_FILE_NAME";
        public const string InvalidRange = "INVALID_RANGE";
        public const string InvalidUploadStream = "INVALID_UPLOAD_STREAM";
        public const string InvalidPageRequest = "INVALID_PAGE_REQUEST";
        public const string MalformedMessage = "MALFORMED_MESSAGE";
        public const string FileNotFound = "FILE_NOT_FOUND";
        public const string OffsetPastEnd = "OFFSET_PAST_END";
        public const string FileTooLarge = "FILE_TOO_LARGE";
        public const string StorageFull = "STORAGE_FULL";
        public const string DigestMismatch = "DIGEST_MISMATCH";
        public const string SizeMismatch = "SIZE_MISMATCH";
        public const string FileExists = "FILE_EXISTS";
        public const string EtagMismatch = "ETAG_MISMATCH";
        public const string NameConflict = "NAME_CONFLICT";
        public const string Unauthenticated = "UNAUTHENTICATED";
        public const string PermissionDenied = "PERMISSION_DENIED";
        public const string RateLimited = "RATE_LIMITED";
    }
}
