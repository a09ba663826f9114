using System.Collections.Frozen;
using static FileTransfer.Client.FileTransferErrorKind;

namespace FileTransfer.Client.Transport;

/// <summary>
/// The one table from the server's reason (REST problem <c>reason</c>, gRPC <c>ErrorInfo.reason</c>,
/// the same wire spelling) to a <see cref="FileTransferErrorKind"/>, used by both transports, so that
/// a failure is the same kind, and the CLI's exit code the same, whichever protocol carried it. Each
/// transport falls back on its status only when a response has no reason (a HEAD, a proxy's answer,
/// a connection that failed), or one this client does not know.
/// </summary>
internal static class ServerReasons
{
    private static readonly FrozenDictionary<string, FileTransferErrorKind> Kinds = new Dictionary<string, FileTransferErrorKind>
    {
        ["INVALID_FILE_NAME"] = InvalidRequest,
        ["INVALID_RANGE"] = InvalidRequest,
        ["INVALID_UPLOAD_STREAM"] = InvalidRequest,
        ["INVALID_PAGE_REQUEST"] = InvalidRequest,
        ["INVALID_LINK_REQUEST"] = InvalidRequest,
        ["MALFORMED_MESSAGE"] = InvalidRequest,
        ["FILE_NOT_FOUND"] = NotFound,
        ["OFFSET_PAST_END"] = RangeNotSatisfiable,
        ["FILE_TOO_LARGE"] = TooLarge,
        ["TOO_MANY_FILES"] = TooLarge,
        ["STORAGE_FULL"] = InsufficientStorage,
        ["DIGEST_MISMATCH"] = DigestMismatch,
        ["SIZE_MISMATCH"] = DigestMismatch,
        ["CHECKSUM_MISMATCH"] = DigestMismatch,
        ["FILE_EXISTS"] = AlreadyExists,
        ["ETAG_MISMATCH"] = PreconditionFailed,
        ["NAME_CONFLICT"] = Conflict,
        ["DIRECT_DOWNLOAD_UNAVAILABLE"] = Conflict,
        ["UNAUTHENTICATED"] = Unauthenticated,
        ["PERMISSION_DENIED"] = PermissionDenied,
        ["RATE_LIMITED"] = RateLimited,
        ["STORAGE_UNAVAILABLE"] = ServiceUnavailable,
        ["UPLOAD_IDLE"] = ConnectionLost,
        ["UNSUPPORTED_PROTOCOL_VERSION"] = ProtocolUnavailable,
        ["UPLOAD_NOT_FOUND"] = UploadNotFound,
        ["UPLOAD_EXPIRED"] = UploadExpired,
        ["UPLOAD_OFFSET_MISMATCH"] = UploadOffsetMismatch,
        ["UPLOAD_BUSY"] = UploadBusy,
        ["UPLOAD_COMPLETED"] = UploadCompleted,

        ["UNSUPPORTED_MEDIA_TYPE"] = InvalidRequest,
        ["ROUTE_NOT_FOUND"] = ProtocolUnavailable,
        ["METHOD_NOT_ALLOWED"] = ProtocolUnavailable,
        ["INTERNAL_ERROR"] = ServerError,

        // Reasons of issues 27, 28 and 30, decided here before the server sends them.
        ["QUOTA_EXCEEDED"] = QuotaExceeded,
        ["TOO_MANY_UPLOADS"] = TooManyUploads,
        ["UPLOAD_CANCELLED"] = UploadNotFound,
        ["UPLOAD_REJECTED"] = UploadRejected,
        ["HOOK_UNAVAILABLE"] = ServiceUnavailable,
    }.ToFrozenDictionary(StringComparer.Ordinal);

    /// <summary>The kind <paramref name="reason"/> means; null when there is none or this client does not know it.</summary>
    public static FileTransferErrorKind? KindOf(string? reason) =>
        reason is not null && Kinds.TryGetValue(reason, out var kind) ? kind : null;

    /// <summary>
    /// The sentence for people: what went wrong, the protocol's <paramref name="status"/> and the
    /// server's <paramref name="detail"/>, worded the same for both protocols.
    /// </summary>
    public static string Describe(FileTransferErrorKind kind, string name, string status, string detail) => kind switch
    {
        InvalidRequest => $"The server refused the request for '{name}' ({status}): {detail}",
        Unauthenticated => $"Not authorized ({status}): {detail}",
        PermissionDenied => $"Forbidden ({status}): {detail}",
        NotFound => $"Not found ({status}): {detail}",
        AlreadyExists => $"'{name}' already exists ({status}): {detail}",
        PreconditionFailed => $"Precondition failed for '{name}' ({status}): {detail}",
        Conflict => $"Conflict for '{name}' ({status}): {detail}",
        RangeNotSatisfiable => $"Range not satisfiable for '{name}' ({status}): {detail}",
        TooLarge => $"Too large ({status}): {detail}",
        InsufficientStorage => $"The server is out of space ({status}): {detail}",
        RateLimited => $"Rate limited ({status}): {detail}",
        DigestMismatch => $"The server refused the bytes of '{name}': they do not match the SHA-256 or length that was sent ({status}): {detail}",
        ConnectionLost => $"The server stopped waiting for the bytes of '{name}' ({status}): {detail}",
        ProtocolUnavailable => $"The server does not serve this request here: a path, method or protocol version it does not have ({status}): {detail}",
        QuotaExceeded => $"Over quota ({status}): {detail}",
        ServiceUnavailable => $"The server cannot serve '{name}' now; try again later ({status}): {detail}",
        TooManyUploads => $"Too many unfinished uploads ({status}): {detail}",
        UploadRejected => $"The server's upload policy refused '{name}' ({status}): {detail}",
        UploadNotFound => $"No such upload session ({status}): {detail}",
        UploadExpired => $"The upload session expired ({status}): {detail}",
        UploadOffsetMismatch => $"The upload session is at another offset ({status}): {detail}",
        UploadBusy => $"Another request is writing to the upload session ({status}): {detail}",
        UploadCompleted => $"The upload session is already complete ({status}): {detail}",
        _ => $"The server answered {status}: {detail}",
    };
}
