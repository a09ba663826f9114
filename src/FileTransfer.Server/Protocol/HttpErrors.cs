using FileTransfer.Core;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Infrastructure;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// The one mapping from the core's <see cref="ErrorReason"/> to HTTP: a status code and a problem
/// title (RFC 9457). Every problem a core failure causes carries the reason as the extension member
/// <c>reason</c>, the same string gRPC clients read from <c>google.rpc.ErrorInfo</c>.
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
        _ => (StatusCodes.Status500InternalServerError, "Request failed"),
    };

    /// <summary>tus 1.0.0 checksum extension: "460 Checksum Mismatch".</summary>
    public const int ChecksumMismatchStatus = 460;

    /// <summary>The problem type of a 460: where tus 1.0.0 defines it (no RFC does).</summary>
    public const string ChecksumMismatchType = "https://tus.io/protocols/resumable-upload#checksum";

    /// <summary>The draft's <c>Upload-Offset</c> header, sent on an offset mismatch with the session's offset.</summary>
    public const string UploadOffsetHeader = "Upload-Offset";

    /// <summary>
    /// The registered problem type of <paramref name="reason"/> where there is one
    /// (draft-ietf-httpbis-resumable-upload, Problem Types), else null for the framework's default.
    /// </summary>
    public static string? TypeFor(ErrorReason reason) => reason switch
    {
        ErrorReason.UploadOffsetMismatch => "https://iana.org/assignments/http-problem-types#mismatching-upload-offset",
        ErrorReason.UploadCompleted => "https://iana.org/assignments/http-problem-types#completed-upload",
        ErrorReason.ChecksumMismatch => ChecksumMismatchType,
        _ => null,
    };

    /// <summary>The problem <paramref name="reason"/> means, for middleware that writes it itself.</summary>
    public static ProblemDetails Problem(ErrorReason reason, string detail)
    {
        var (status, title) = For(reason);
        return new ProblemDetails
        {
            Status = status,
            Title = title,
            Detail = detail,
            Extensions = { [ReasonMember] = reason.Code() },
        };
    }

    /// <summary>
    /// The answer to an MVC request that failed for <paramref name="reason"/>: the problem through the
    /// app's <see cref="ProblemDetailsFactory"/> (type, traceId, problem+json) with the reason, which is
    /// also remembered on the request for the transfer log and metrics.
    /// </summary>
    public static ObjectResult Result(HttpContext context, ErrorReason reason, string detail)
    {
        var (status, title) = For(reason);
        var problem = context.RequestServices.GetRequiredService<ProblemDetailsFactory>().CreateProblemDetails(context, status, title, detail: detail);
        problem.Type = TypeFor(reason) ?? problem.Type;
        problem.Extensions[ReasonMember] = reason.Code();
        Remember(context, reason);
        return new ObjectResult(problem) { StatusCode = status, ContentTypes = { "application/problem+json", "application/problem+xml" } };
    }

    /// <summary>
    /// The answer to a core refusal: <see cref="Result(HttpContext, ErrorReason, string)"/>, and for an
    /// offset mismatch the session's offset in <c>Upload-Offset</c> and the problem's
    /// <c>expected-offset</c> / <c>provided-offset</c> members (the draft's Mismatching Offset).
    /// </summary>
    public static ObjectResult Result(HttpContext context, FileTransferException refused)
    {
        var result = Result(context, refused.Reason, refused.Message);
        if (refused.ExpectedOffset is { } expected && result.Value is ProblemDetails problem)
        {
            context.Response.Headers[UploadOffsetHeader] = expected.ToString(System.Globalization.CultureInfo.InvariantCulture);
            problem.Extensions["expected-offset"] = expected;
            if (refused.ProvidedOffset is { } provided)
            {
                problem.Extensions["provided-offset"] = provided;
            }
        }

        return result;
    }

    /// <inheritdoc cref="Result(HttpContext, ErrorReason, string)"/>
    public static ObjectResult Problem(this ControllerBase controller, ErrorReason reason, string detail) =>
        Result(controller.HttpContext, reason, detail);

    /// <summary>The reason a request failed for, kept on the request for the transfer log and metrics.</summary>
    public static void Remember(HttpContext context, ErrorReason reason) => context.Features.Set(new FailureFeature(reason));

    /// <summary>The reason remembered by <see cref="Remember"/>, or null.</summary>
    public static ErrorReason? ReasonOf(HttpContext context) => context.Features.Get<FailureFeature>()?.Reason;

    private sealed record FailureFeature(ErrorReason Reason);
}
