using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Resumable uploads at <c>api/uploads</c>: tus 1.0.0 (a request with <c>Tus-Resumable</c>) and the
/// IETF draft's upload resource (a request with <c>Upload-Draft-Interop-Version</c>) on the same
/// sessions, which gRPC continues too. Each action hands the request to its protocol's translator;
/// the core decides everything (docs/resumable-uploads.md).
/// </summary>
[ApiController]
[Route(Routes.Uploads)]
internal sealed class UploadSessionsController(TusUploads tus, DraftUploads draft) : ControllerBase
{
    /// <summary>
    /// tus discovery: <c>Tus-Version</c>, <c>Tus-Extension</c> (creation, creation-with-upload,
    /// creation-defer-length, termination, expiration, checksum), <c>Tus-Max-Size</c> and
    /// <c>Tus-Checksum-Algorithm</c>. No credential needed.
    /// </summary>
    [HttpOptions]
    [AllowAnonymous]
    [ProducesResponseType(StatusCodes.Status204NoContent)]
    public IActionResult Discover() => tus.Discover(Response);

    /// <summary>
    /// tus creation: <c>Tus-Resumable: 1.0.0</c>, <c>Upload-Length</c> (or <c>Upload-Defer-Length: 1</c>),
    /// <c>Upload-Metadata</c> with <c>filename</c> (and optionally <c>folder</c>, and <c>sha256</c>: the
    /// whole file's SHA-256 in hex; or send <c>Repr-Digest</c>). With an
    /// <c>application/offset+octet-stream</c> body, its bytes are the first of the file. 201 with
    /// <c>Location</c> of the upload and <c>Upload-Expires</c>. <c>If-None-Match: *</c> / <c>If-Match</c>
    /// apply to the commit, as for any upload.
    /// </summary>
    [HttpPost]
    [Operation(FileOperation.Write)]
    [DisableFormValueModelBinding]
    [ProducesResponseType(StatusCodes.Status201Created)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status412PreconditionFailed, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status413PayloadTooLarge, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status415UnsupportedMediaType, "application/problem+json")]
    public Task<IActionResult> Create() => tus.CreateAsync(HttpContext);

    /// <summary>
    /// The upload's state. tus: 200 with <c>Upload-Offset</c>, <c>Upload-Length</c> (or
    /// <c>Upload-Defer-Length</c>), <c>Upload-Metadata</c>, <c>Upload-Expires</c>. Draft: 204 with
    /// <c>Upload-Offset</c>, <c>Upload-Complete</c>, <c>Upload-Length</c>, <c>Upload-Limit</c>. Both
    /// <c>Cache-Control: no-store</c>; once complete, also the stored file's <c>ETag</c>,
    /// <c>Repr-Digest</c> and <c>Content-Location</c>. Only the upload's owner, or a key with the
    /// <c>delete</c> scope, may ask.
    /// </summary>
    /// <param name="uploadId">The upload's id, from the <c>Location</c> of its creation.</param>
    [HttpHead("{uploadId}")]
    [Operation(FileOperation.ManageUpload)]
    [ProducesResponseType(StatusCodes.Status200OK)]
    [ProducesResponseType(StatusCodes.Status204NoContent)]
    [ProducesResponseType(StatusCodes.Status403Forbidden)]
    [ProducesResponseType(StatusCodes.Status404NotFound)]
    [ProducesResponseType(StatusCodes.Status410Gone)]
    public Task<IActionResult> Status(string uploadId) =>
        DraftUploads.IsRequest(Request) ? draft.StatusAsync(HttpContext, uploadId) : tus.StatusAsync(HttpContext, uploadId);

    /// <summary>
    /// Appends the body at <c>Upload-Offset</c>, which must be the upload's durable offset (409
    /// otherwise, with the offset in <c>Upload-Offset</c>). tus: <c>application/offset+octet-stream</c>,
    /// optional <c>Upload-Checksum</c> (sha1 or sha256; 460 when the bytes do not match it, none of
    /// them kept), <c>Upload-Length</c> once when it was deferred; complete when the offset reaches
    /// the length; 204 with the new <c>Upload-Offset</c>. Draft: <c>application/partial-upload</c>,
    /// <c>Upload-Complete</c>, optional <c>Content-Digest</c>; 204 with <c>Upload-Offset</c>, or with
    /// the last bytes the answer of a plain upload (201 / 200 and the stored file). A second append
    /// while one runs is refused (409, <c>UPLOAD_BUSY</c>).
    /// </summary>
    /// <param name="uploadId">The upload's id, from the <c>Location</c> of its creation.</param>
    [HttpPatch("{uploadId}")]
    [Operation(FileOperation.Write)]
    [DisableFormValueModelBinding]
    [ProducesResponseType(StatusCodes.Status204NoContent)]
    [ProducesResponseType<UploadedFile>(StatusCodes.Status201Created)]
    [ProducesResponseType<UploadedFile>(StatusCodes.Status200OK)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status404NotFound, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status409Conflict, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status410Gone, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status412PreconditionFailed, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status413PayloadTooLarge, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status415UnsupportedMediaType, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(HttpErrors.ChecksumMismatchStatus, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status507InsufficientStorage, "application/problem+json")]
    public Task<IActionResult> Append(string uploadId) =>
        DraftUploads.IsRequest(Request) ? draft.AppendAsync(HttpContext, uploadId) : tus.AppendAsync(HttpContext, uploadId);

    /// <summary>
    /// Cancels the upload (tus termination, draft cancellation): its bytes are removed and nothing
    /// is stored. 204. The upload's owner, or a key with the <c>delete</c> scope.
    /// </summary>
    /// <param name="uploadId">The upload's id, from the <c>Location</c> of its creation.</param>
    [HttpDelete("{uploadId}")]
    [Operation(FileOperation.ManageUpload)]
    [ProducesResponseType(StatusCodes.Status204NoContent)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status403Forbidden, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status404NotFound, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status409Conflict, "application/problem+json")]
    public Task<IActionResult> Cancel(string uploadId) =>
        DraftUploads.IsRequest(Request) ? draft.CancelAsync(HttpContext, uploadId) : tus.CancelAsync(HttpContext, uploadId);
}
