using System.Globalization;
using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Rest;

/// <summary>
/// tus 1.0.0 at <c>api/uploads</c>: the core protocol (HEAD, PATCH) and the extensions creation,
/// creation-with-upload, creation-defer-length, termination, expiration and checksum, each request
/// translated into the core's upload sessions, which the draft and gRPC continue too. Every answer
/// carries <c>Tus-Resumable</c>. A request to an upload that names an
/// <c>Upload-Draft-Interop-Version</c> is routed to <see cref="DraftUploads"/> instead
/// (<see cref="UploadProtocolPolicy"/>); the core decides everything (docs/resumable-uploads.md).
/// </summary>
/// <remarks>
/// The OpenAPI document has one operation per path and method, so the operations on
/// <c>api/uploads/{uploadId}</c> are described here for both protocols, and the draft's endpoints are
/// left out of it.
/// </remarks>
internal static class TusUploads
{
    /// <summary>
    /// tus discovery: <c>Tus-Version</c>, <c>Tus-Extension</c> (creation, creation-with-upload,
    /// creation-defer-length, termination, expiration, checksum), <c>Tus-Max-Size</c> and
    /// <c>Tus-Checksum-Algorithm</c>. No credential needed.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="storage">The storage limits.</param>
    [AllowAnonymous]
    [ProducesResponseType(StatusCodes.Status204NoContent)]
    public static IResult Discover(HttpContext context, [FromServices] IOptions<StorageOptions> storage)
    {
        var headers = context.Response.Headers;
        headers[TusProtocol.ResumableHeader] = TusProtocol.Version;
        headers[TusProtocol.VersionHeader] = TusProtocol.Version;
        headers[TusProtocol.ExtensionHeader] = TusProtocol.Extensions;
        headers[TusProtocol.MaxSizeHeader] = storage.Value.MaxFileSizeBytes.ToString(CultureInfo.InvariantCulture);
        headers[TusProtocol.ChecksumAlgorithmHeader] = string.Join(',', RequestChecksum.Algorithms);
        return Results.NoContent();
    }

    /// <summary>
    /// tus creation: <c>Tus-Resumable: 1.0.0</c>, <c>Upload-Length</c> (or <c>Upload-Defer-Length: 1</c>),
    /// <c>Upload-Metadata</c> with <c>filename</c> (and optionally <c>folder</c>, and <c>sha256</c>: the
    /// whole file's SHA-256 in hex; or send <c>Repr-Digest</c>). With an
    /// <c>application/offset+octet-stream</c> body, its bytes are the first of the file. 201 with
    /// <c>Location</c> of the upload and <c>Upload-Expires</c>. <c>If-None-Match: *</c> / <c>If-Match</c>
    /// apply to the commit, as for any upload.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="sessions">The upload sessions.</param>
    /// <param name="storage">The storage limits.</param>
    /// <param name="transfers">Where the transfer is counted.</param>
    [Operation(FileOperation.Write)]
    [ProducesResponseType(StatusCodes.Status201Created)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status412PreconditionFailed, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status413PayloadTooLarge, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status415UnsupportedMediaType, "application/problem+json")]
    public static async Task<IResult> Create(
        HttpContext context, [FromServices] UploadSessions sessions, [FromServices] IOptions<StorageOptions> storage, [FromServices] TransferOrigins transfers)
    {
        var (request, response) = (context.Request, context.Response);
        TusProtocol.AnswerAsTus(response);
        TusProtocol.CheckVersion(request);
        var length = TusProtocol.CreationLength(request);
        var metadataText = request.Headers[TusProtocol.MetadataHeader].ToString();
        var metadata = TusProtocol.Metadata(metadataText);
        var withUpload = IsOffsetOctetStream(request);
        if (!withUpload && HasContent(context))
        {
            return Unsupported(context);
        }

        var caller = SessionUploads.Caller(context);
        var upload = new UploadRequest(TusProtocol.NameOf(metadata))
        {
            DeclaredLength = length,
            ExpectedSha256 = WholeFileSha256(context, metadata),
            Preconditions = RestUploads.PreconditionsOf(request),
            Protocol = RestUploads.ProtocolOf(request, TransferProtocol.Tus),
        };
        var checksum = TusProtocol.Checksum(request);
        var session = await SessionUploads.CreateAsync(context, sessions, upload, caller, metadataText.Length > 0 ? metadataText : null, checksum);

        response.Headers.Location = SessionUploads.Location(request, session.Id);
        if (withUpload || length == 0)
        {
            var outcome = await SessionUploads.AppendAsync(context, sessions, new UploadWriteRequest(session.Id, caller, 0) { Checksum = checksum, Protocol = upload.Protocol }, UploadEnd.AtLength, storage.Value.MaxFileSizeBytes, transfers.For(context, TransferProtocol.Tus));
            session = outcome.Session;
            response.Headers[TusProtocol.OffsetHeader] = session.Offset.ToString(CultureInfo.InvariantCulture);
            SessionUploads.WriteCompleted(response, session);
        }
        else
        {
            checksum?.Dispose();
        }

        TusProtocol.WriteExpiry(response, session);
        return Results.StatusCode(StatusCodes.Status201Created);
    }

    /// <summary>
    /// The upload's state. tus: 200 with <c>Upload-Offset</c>, <c>Upload-Length</c> (or
    /// <c>Upload-Defer-Length</c>), <c>Upload-Metadata</c>, <c>Upload-Expires</c>. Draft: 204 with
    /// <c>Upload-Offset</c>, <c>Upload-Complete</c>, <c>Upload-Length</c>, <c>Upload-Limit</c>. Both
    /// <c>Cache-Control: no-store</c>; once complete, also the stored file's <c>ETag</c>,
    /// <c>Repr-Digest</c> and <c>Content-Location</c>. Only the upload's owner, or a key with the
    /// <c>delete</c> scope, may ask.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="sessions">The upload sessions.</param>
    /// <param name="uploadId">The upload's id, from the <c>Location</c> of its creation.</param>
    [Operation(FileOperation.ManageUpload)]
    [ProducesResponseType(StatusCodes.Status200OK)]
    [ProducesResponseType(StatusCodes.Status204NoContent)]
    [ProducesResponseType(StatusCodes.Status403Forbidden)]
    [ProducesResponseType(StatusCodes.Status404NotFound)]
    [ProducesResponseType(StatusCodes.Status410Gone)]
    public static async Task<IResult> Status(HttpContext context, [FromServices] UploadSessions sessions, string uploadId)
    {
        var response = context.Response;
        TusProtocol.AnswerAsTus(response);
        TusProtocol.CheckVersion(context.Request);
        var session = await sessions.GetAsync(uploadId, SessionUploads.Caller(context), context.RequestAborted);
        TusProtocol.WriteStatus(response, session);
        SessionUploads.WriteCompleted(response, session);
        return Results.Ok();
    }

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
    /// <param name="context">The request.</param>
    /// <param name="sessions">The upload sessions.</param>
    /// <param name="storage">The storage limits.</param>
    /// <param name="transfers">Where the transfer is counted.</param>
    /// <param name="uploadId">The upload's id, from the <c>Location</c> of its creation.</param>
    [Operation(FileOperation.Write)]
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
    public static async Task<IResult> Append(
        HttpContext context, [FromServices] UploadSessions sessions, [FromServices] IOptions<StorageOptions> storage, [FromServices] TransferOrigins transfers, string uploadId)
    {
        var (request, response) = (context.Request, context.Response);
        TusProtocol.AnswerAsTus(response);
        TusProtocol.CheckVersion(request);
        if (!IsOffsetOctetStream(request))
        {
            return Unsupported(context);
        }

        var write = new UploadWriteRequest(uploadId, SessionUploads.Caller(context), TusProtocol.Offset(request))
        {
            Length = TusProtocol.Length(request),
            Checksum = TusProtocol.Checksum(request),
            Protocol = RestUploads.ProtocolOf(request, TransferProtocol.Tus),
        };
        var outcome = await SessionUploads.AppendAsync(context, sessions, write, UploadEnd.AtLength, storage.Value.MaxFileSizeBytes, transfers.For(context, TransferProtocol.Tus));
        response.Headers[TusProtocol.OffsetHeader] = outcome.Session.Offset.ToString(CultureInfo.InvariantCulture);
        TusProtocol.WriteExpiry(response, outcome.Session);
        SessionUploads.WriteCompleted(response, outcome.Session);
        return Results.NoContent();
    }

    /// <summary>
    /// Cancels the upload (tus termination, draft cancellation): its bytes are removed and nothing
    /// is stored. 204. The upload's owner, or a key with the <c>delete</c> scope.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="sessions">The upload sessions.</param>
    /// <param name="uploadId">The upload's id, from the <c>Location</c> of its creation.</param>
    [Operation(FileOperation.ManageUpload)]
    [ProducesResponseType(StatusCodes.Status204NoContent)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status403Forbidden, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status404NotFound, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status409Conflict, "application/problem+json")]
    public static async Task<IResult> Cancel(HttpContext context, [FromServices] UploadSessions sessions, string uploadId)
    {
        var request = context.Request;
        TusProtocol.AnswerAsTus(context.Response);
        TusProtocol.CheckVersion(request);
        await sessions.CancelAsync(uploadId, SessionUploads.Caller(context), RestUploads.ProtocolOf(request, TransferProtocol.Tus), context.RequestAborted);
        return Results.NoContent();
    }

    // Repr-Digest (RFC 9530) and the sha256 metadata: the same digest if both are sent.
    private static byte[]? WholeFileSha256(HttpContext context, IReadOnlyDictionary<string, byte[]> metadata)
    {
        var header = SessionUploads.Sha256Of(context, ContentDigest.ReprDigestHeader);
        var fromMetadata = TusProtocol.Sha256Of(metadata);
        return header is not null && fromMetadata is not null && !header.AsSpan().SequenceEqual(fromMetadata)
            ? throw new FileTransferException(ErrorReason.InvalidUploadStream, "Repr-Digest and the sha256 metadata disagree.")
            : header ?? fromMetadata;
    }

    private static bool IsOffsetOctetStream(HttpRequest request) =>
        request.ContentType is { } type && type.Split(';')[0].Trim().Equals(TusProtocol.OffsetOctetStream, StringComparison.OrdinalIgnoreCase);

    private static bool HasContent(HttpContext context) =>
        context.Request.ContentLength > 0 || (context.Request.ContentLength is null && context.Features.Get<IHttpRequestBodyDetectionFeature>()?.CanHaveBody == true);

    // tus 1.0.0: a PATCH (and creation-with-upload) body is application/offset+octet-stream, else 415.
    private static ProblemResult Unsupported(HttpContext context) =>
        SessionUploads.UnsupportedMediaType(context, $"tus sends the bytes as Content-Type: {TusProtocol.OffsetOctetStream}.");
}
