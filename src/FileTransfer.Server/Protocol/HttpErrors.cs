using FileTransfer.Core;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// The one mapping from the core's <see cref="ErrorReason"/> to HTTP: a status code, a problem title
/// and type (RFC 9457). Every problem carries the reason as the extension member <c>reason</c>, the
/// same string gRPC clients read from <c>google.rpc.ErrorInfo</c>; <see cref="ProblemWriter"/> writes it.
/// </summary>
internal static class HttpErrors
{
    /// <summary>The problem details member that holds <see cref="ErrorReasons.Code"/>.</summary>
    public const string ReasonMember = "reason";

    public static (int Status, string Title) For(ErrorReason reason) => reason switch
    {
        ErrorReason.InvalidFileName => (StatusCodes.Status400BadRequest, "Invalid file name"),
        ErrorReason.InvalidRange => (StatusCodes.Status400BadRequest, "Invalid range"),
        ErrorReason.InvalidUploadStream => (StatusCodes.Status400BadRequest, "Invalid upload"),
        ErrorReason.InvalidPageRequest => (StatusCodes.Status400BadRequest, "Invalid listing request"),
        ErrorReason.FileNotFound => (StatusCodes.Status404NotFound, "File not found"),
        ErrorReason.OffsetPastEnd => (StatusCodes.Status416RangeNotSatisfiable, "Range not satisfiable"),
        ErrorReason.FileTooLarge => (StatusCodes.Status413PayloadTooLarge, "File too large"),
        ErrorReason.StorageFull => (StatusCodes.Status507InsufficientStorage, "Insufficient storage"),
        ErrorReason.DigestMismatch => (StatusCodes.Status400BadRequest, "Digest mismatch"),
        ErrorReason.SizeMismatch => (StatusCodes.Status400BadRequest, "Incomplete body"),
        ErrorReason.FileExists or ErrorReason.EtagMismatch => (StatusCodes.Status412PreconditionFailed, "Precondition failed"),
        ErrorReason.NameConflict => (StatusCodes.Status409Conflict, "Name conflict"),
        ErrorReason.Unauthenticated => (StatusCodes.Status401Unauthorized, "Authentication required"),
        ErrorReason.PermissionDenied => (StatusCodes.Status403Forbidden, "Forbidden"),
        ErrorReason.RateLimited => (StatusCodes.Status429TooManyRequests, "Too many requests"),
        ErrorReason.StorageUnavailable => (StatusCodes.Status503ServiceUnavailable, "Storage unavailable"),
        ErrorReason.UploadIdle => (StatusCodes.Status408RequestTimeout, "Request timeout"),
        ErrorReason.InvalidLinkRequest => (StatusCodes.Status400BadRequest, "Invalid link request"),
        ErrorReason.TooManyFiles => (StatusCodes.Status413PayloadTooLarge, "Too many files"),
        ErrorReason.DirectDownloadUnavailable => (StatusCodes.Status409Conflict, "Direct download unavailable"),
        ErrorReason.MalformedMessage => (StatusCodes.Status400BadRequest, "Malformed request"),

        // RFC 4918 11.5: "unable to store the representation needed to complete the request".
        ErrorReason.QuotaExceeded => (StatusCodes.Status507InsufficientStorage, "Quota exceeded"),

        // Resumable uploads. tus 1.0.0: 404 or 410 for an unknown or expired upload, 409 for an
        // offset mismatch, 460 for a checksum mismatch (checksum extension), 412 for an unsupported
        // Tus-Resumable; the IETF draft: 409 for the offset, 400 for an append to a completed upload.
        ErrorReason.UploadNotFound => (StatusCodes.Status404NotFound, "Upload not found"),
        ErrorReason.UploadExpired => (StatusCodes.Status410Gone, "Upload expired"),
        ErrorReason.UploadOffsetMismatch => (StatusCodes.Status409Conflict, "Upload offset mismatch"),
        ErrorReason.UploadBusy => (StatusCodes.Status409Conflict, "Upload busy"),
        ErrorReason.UploadCompleted => (StatusCodes.Status400BadRequest, "Upload completed"),
        ErrorReason.ChecksumMismatch => (ChecksumMismatchStatus, "Checksum mismatch"),
        ErrorReason.UnsupportedProtocolVersion => (StatusCodes.Status412PreconditionFailed, "Unsupported protocol version"),
        ErrorReason.UploadRejected => (StatusCodes.Status403Forbidden, "Upload rejected"),
        ErrorReason.HookUnavailable => (StatusCodes.Status503ServiceUnavailable, "Hook unavailable"),
        ErrorReason.TooManyUploads => (StatusCodes.Status429TooManyRequests, "Too many uploads"),
        ErrorReason.UploadCancelled => (StatusCodes.Status409Conflict, "Upload cancelled"),

        // What routing, the framework's body checks and unforeseen failures answer, in the same form.
        ErrorReason.UnsupportedMediaType => (StatusCodes.Status415UnsupportedMediaType, "Unsupported media type"),
        ErrorReason.RouteNotFound => (StatusCodes.Status404NotFound, "Not found"),
        ErrorReason.MethodNotAllowed => (StatusCodes.Status405MethodNotAllowed, "Method not allowed"),
        ErrorReason.InternalError => (StatusCodes.Status500InternalServerError, "Internal server error"),
        _ => (StatusCodes.Status500InternalServerError, "Request failed"),
    };

    /// <summary>tus 1.0.0 checksum extension: "460 Checksum Mismatch".</summary>
    public const int ChecksumMismatchStatus = 460;

    /// <summary>The problem type of a 460: where tus 1.0.0 defines it (no RFC does).</summary>
    public const string ChecksumMismatchType = "https://tus.io/protocols/resumable-upload#checksum";

    /// <summary>RFC 6585 4 defines 429; the framework's problem defaults have no type for it.</summary>
    public const string TooManyRequestsType = "https://tools.ietf.org/html/rfc6585#section-4";

    /// <summary>The draft's <c>Upload-Offset</c> header, sent on an offset mismatch with the session's offset.</summary>
    public const string UploadOffsetHeader = "Upload-Offset";

    /// <summary>
    /// The registered problem type of <paramref name="reason"/> where there is one
    /// (draft-ietf-httpbis-resumable-upload, Problem Types; RFC 6585), else null for the framework's default.
    /// </summary>
    public static string? TypeFor(ErrorReason reason) => reason switch
    {
        ErrorReason.RateLimited => TooManyRequestsType,
        ErrorReason.UploadOffsetMismatch => "https://iana.org/assignments/http-problem-types#mismatching-upload-offset",
        ErrorReason.UploadCompleted => "https://iana.org/assignments/http-problem-types#completed-upload",
        ErrorReason.ChecksumMismatch => ChecksumMismatchType,
        _ => null,
    };

    /// <summary>
    /// The answer to a request to an endpoint that failed for <paramref name="reason"/>:
    /// <see cref="ProblemWriter"/> writes it when the result runs. The reason is remembered on the
    /// request at once, for the transfer log and metrics.
    /// </summary>
    public static ProblemResult Result(HttpContext context, ErrorReason reason, string detail) =>
        Result(context, new FileTransferException(reason, detail));

    /// <summary>The answer to a core refusal, with everything it carries (an offset mismatch's offsets, a retry delay).</summary>
    public static ProblemResult Result(HttpContext context, FileTransferException refused)
    {
        Remember(context, refused.Reason);
        return new ProblemResult(refused);
    }

    /// <summary>The reason a request failed for, kept on the request for the transfer log and metrics.</summary>
    public static void Remember(HttpContext context, ErrorReason reason) => context.Features.Set(new FailureFeature(reason));

    /// <summary>The reason remembered by <see cref="Remember"/>, or null.</summary>
    public static ErrorReason? ReasonOf(HttpContext context) => context.Features.Get<FailureFeature>()?.Reason;

    private sealed record FailureFeature(ErrorReason Reason);
}
