using FileTransfer.Core;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Rest;

/// <summary>
/// The IETF "Resumable Uploads for HTTP" draft: upload creation on the target itself (<c>POST</c> or
/// <c>PUT api/files/{path}</c> with <c>Upload-Complete</c>), and the upload resource at
/// <c>api/uploads/{id}</c> (offset retrieval with HEAD, append with PATCH, cancellation with DELETE),
/// each translated into the core's upload sessions, the same ones tus and gRPC continue.
/// Kestrel cannot send the interim <c>104 (Upload Resumption Supported)</c>: a client learns the
/// upload's address from the final answer to its creation (docs/resumable-uploads.md).
/// </summary>
internal sealed class DraftUploads(UploadSessions sessions, IOptions<DraftUploadOptions> options, IOptions<StorageOptions> storage)
{
    /// <summary>True for a request to an upload resource that speaks the draft (it names an interop version).</summary>
    public static bool IsRequest(HttpRequest request) => request.Headers.ContainsKey(DraftProtocol.InteropVersionHeader);

    /// <summary>
    /// Creates an upload on <paramref name="path"/> when the request asks for one (an interop version
    /// and <c>Upload-Complete</c>), appends its content, and answers: 201 with <c>Location</c> of the
    /// upload while incomplete, or, once complete, what a plain upload would have answered. Null when
    /// the request is a plain upload (no draft headers, or an interop version not served with the
    /// whole file in it); a version not served for an incomplete upload is refused (412).
    /// </summary>
    public async Task<IActionResult?> TryCreateAsync(HttpContext context, string path)
    {
        var request = context.Request;
        if (DraftProtocol.InteropVersion(request) is not { } version || DraftProtocol.IsComplete(request, version) is not { } complete)
        {
            return null;
        }

        if (!Serves(version))
        {
            return complete ? null : throw Unsupported(version);
        }

        var caller = SessionUploads.Caller(context);
        var upload = new UploadRequest(path)
        {
            DeclaredLength = DraftProtocol.Length(request, 0, complete),
            ExpectedSha256 = SessionUploads.Sha256Of(context, ContentDigest.ReprDigestHeader),
            Preconditions = RestUploads.PreconditionsOf(request),
            Protocol = RestUploads.ProtocolOf(request, TransferProtocol.Draft),
        };
        var checksum = ContentChecksum(context);
        var session = await SessionUploads.CreateAsync(context, sessions, upload, caller, metadata: null, checksum);

        // Set before the content is read: a client that sees any answer (even an error) learns it.
        context.Response.Headers.Location = SessionUploads.Location(request, session.Id);
        DraftProtocol.WriteLimits(context.Response, session.MaxBytes, sessions.TimeLeft(session));
        var outcome = await SessionUploads.AppendAsync(context, sessions, new UploadWriteRequest(session.Id, caller, 0) { Checksum = checksum, Protocol = upload.Protocol }, EndOf(complete), storage.Value.MaxFileSizeBytes);
        return Answer(context.Response, outcome, version, StatusCodes.Status201Created);
    }

    /// <summary>Offset retrieval: 204 with the offset, completeness, length, limits; never cached.</summary>
    public async Task<IActionResult> StatusAsync(HttpContext context, string uploadId)
    {
        var version = ServedVersion(context.Request);
        var session = await sessions.GetAsync(uploadId, SessionUploads.Caller(context), context.RequestAborted);
        DraftProtocol.WriteStatus(context.Response, session, version, sessions.TimeLeft(session));
        SessionUploads.WriteCompleted(context.Response, session);
        return new NoContentResult();
    }

    /// <summary>
    /// Upload append: the content (<c>application/partial-upload</c>) at <c>Upload-Offset</c> (409 with
    /// the mismatching-upload-offset problem when it is not the durable offset); with
    /// <c>Upload-Complete: ?1</c> the upload is verified and stored, and answered as a plain upload.
    /// </summary>
    public async Task<IActionResult> AppendAsync(HttpContext context, string uploadId)
    {
        var request = context.Request;
        var version = ServedVersion(request);
        if (!DraftProtocol.HasAppendType(request, version))
        {
            return SessionUploads.UnsupportedMediaType(context, $"An append sends its bytes as Content-Type: {DraftProtocol.PartialUpload}.");
        }

        var offset = DraftProtocol.Offset(request);
        var complete = DraftProtocol.IsComplete(request, version)
            ?? throw new FileTransferException(ErrorReason.InvalidUploadStream, "An append carries Upload-Complete: ?1 with the last bytes, ?0 before.");
        var write = new UploadWriteRequest(uploadId, SessionUploads.Caller(context), offset)
        {
            Length = DraftProtocol.Length(request, offset, complete),
            Checksum = ContentChecksum(context),
            Protocol = RestUploads.ProtocolOf(request, TransferProtocol.Draft),
        };
        var outcome = await SessionUploads.AppendAsync(context, sessions, write, EndOf(complete), storage.Value.MaxFileSizeBytes);
        return Answer(context.Response, outcome, version, StatusCodes.Status204NoContent);
    }

    /// <summary>Upload cancellation: the session and its bytes are removed (a request still appending is ended first).</summary>
    public async Task<IActionResult> CancelAsync(HttpContext context, string uploadId)
    {
        ServedVersion(context.Request);
        await sessions.CancelAsync(uploadId, SessionUploads.Caller(context), RestUploads.ProtocolOf(context.Request, TransferProtocol.Draft), context.RequestAborted);
        return new NoContentResult();
    }

    // An incomplete upload: the progress (201 for a creation, with Location and limits, else 204).
    // A complete one: what the target answers a plain upload (201 / 200 with the stored file), with
    // Upload-Complete: ?1 and the offset (draft, Upload Append: the response MUST include
    // Upload-Complete with a true value).
    private static IActionResult Answer(HttpResponse response, UploadSessionOutcome outcome, int version, int incompleteStatus)
    {
        DraftProtocol.WriteProgress(response, outcome.Session, version);
        if (outcome.Stored is not { } stored)
        {
            return new StatusCodeResult(incompleteStatus);
        }

        return RestUploads.Stored(response, stored);
    }

    // Upload-Complete: ?1 ends the upload. With ?0 it also ends when the bytes reach a length the
    // client declared: tus-js-client 4.3.1 (ietf-draft-05) sends the last piece of a file with ?0
    // and then reports success, so waiting for a ?1 that never comes would keep such uploads forever.
    private static UploadEnd EndOf(bool complete) => complete ? UploadEnd.Complete : UploadEnd.AtLength;

    // A per-request Content-Digest (RFC 9530 2: the digest of this message's content): the bytes of
    // this request are kept only when they match (draft, Content Digests).
    private static RequestChecksum? ContentChecksum(HttpContext context) =>
        SessionUploads.Sha256Of(context, ContentDigest.ContentDigestHeader) is { } sha256 ? RequestChecksum.ContentDigest(sha256) : null;

    private int ServedVersion(HttpRequest request) =>
        DraftProtocol.InteropVersion(request) is { } version && Serves(version) ? version : throw Unsupported(DraftProtocol.InteropVersion(request));

    private bool Serves(int version) => options.Value.InteropVersions.Contains(version);

    private FileTransferException Unsupported(int? version) => new(
        ErrorReason.UnsupportedProtocolVersion,
        $"Upload-Draft-Interop-Version {version?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "(not an integer)"} is not served; this server speaks {string.Join(", ", options.Value.InteropVersions)}.");
}
