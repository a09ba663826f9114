using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Rest;

/// <summary>
/// The IETF "Resumable Uploads for HTTP" draft: upload creation on the target itself (<c>POST</c> or
/// <c>PUT api/files/{path}</c> with <c>Upload-Complete</c>), and the upload resource at
/// <c>api/uploads/{id}</c> (offset retrieval with HEAD, append with PATCH, cancellation with DELETE),
/// each translated into the core's upload sessions, the same ones tus and gRPC continue. Routing
/// sends a request here by its header fields (<see cref="UploadProtocolPolicy"/>): each route is shared
/// with a plain upload or with tus, whose actions describe it in the OpenAPI document.
/// Kestrel cannot send the interim <c>104 (Upload Resumption Supported)</c>: a client learns the
/// upload's address from the final answer to its creation (docs/resumable-uploads.md).
/// </summary>
internal static class DraftUploads
{
    // A creation names its file: "POST api/files" without one is a form, or refused by the plain upload.
    public const string FileRoute = Routes.Files + "/{**path:minlength(1)}";
    public const string UploadRoute = Routes.Uploads + "/{uploadId}";

    /// <summary>
    /// Creates an upload of <paramref name="path"/> (an interop version and <c>Upload-Complete</c>),
    /// appends its content, and answers: 201 with <c>Location</c> of the upload while incomplete, or,
    /// once complete, what a plain upload would have answered. A version not served is refused (412);
    /// routing sends such a request here only while it is incomplete.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="sessions">The upload sessions.</param>
    /// <param name="options">The interop versions served.</param>
    /// <param name="storage">The storage limits.</param>
    /// <param name="transfers">Where the transfer is counted.</param>
    /// <param name="path">Name relative to the storage root, '/' separated.</param>
    [Operation(FileOperation.Write)]
    public static async Task<IResult> Create(
        HttpContext context,
        [FromServices] UploadSessions sessions,
        [FromServices] IOptions<DraftUploadOptions> options,
        [FromServices] IOptions<StorageOptions> storage,
        [FromServices] TransferOrigins transfers,
        string path)
    {
        var (request, response) = (context.Request, context.Response);
        var version = ServedVersion(request, options.Value);
        var complete = DraftProtocol.IsComplete(request, version)
            ?? throw new FileTransferException(ErrorReason.InvalidUploadStream, "An upload creation carries Upload-Complete: ?1 with the whole file, ?0 with its first bytes.");
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
        response.Headers.Location = SessionUploads.Location(request, session.Id);
        DraftProtocol.WriteLimits(response, session.MaxBytes, sessions.TimeLeft(session));
        var outcome = await SessionUploads.AppendAsync(context, sessions, new UploadWriteRequest(session.Id, caller, 0) { Checksum = checksum, Protocol = upload.Protocol }, EndOf(complete), storage.Value.MaxFileSizeBytes, transfers.For(context, TransferProtocol.Draft));
        return Answer(response, outcome, version, StatusCodes.Status201Created);
    }

    /// <summary>Offset retrieval: 204 with the offset, completeness, length, limits; never cached.</summary>
    /// <param name="context">The request.</param>
    /// <param name="sessions">The upload sessions.</param>
    /// <param name="options">The interop versions served.</param>
    /// <param name="uploadId">The upload's id, from the <c>Location</c> of its creation.</param>
    [Operation(FileOperation.ManageUpload)]
    public static async Task<IResult> Status(HttpContext context, [FromServices] UploadSessions sessions, [FromServices] IOptions<DraftUploadOptions> options, string uploadId)
    {
        var response = context.Response;
        var version = ServedVersion(context.Request, options.Value);
        var session = await sessions.GetAsync(uploadId, SessionUploads.Caller(context), context.RequestAborted);
        DraftProtocol.WriteStatus(response, session, version, sessions.TimeLeft(session));
        SessionUploads.WriteCompleted(response, session);
        return Results.NoContent();
    }

    /// <summary>
    /// Upload append: the content (<c>application/partial-upload</c>) at <c>Upload-Offset</c> (409 with
    /// the mismatching-upload-offset problem when it is not the durable offset); with
    /// <c>Upload-Complete: ?1</c> the upload is verified and stored, and answered as a plain upload.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="sessions">The upload sessions.</param>
    /// <param name="options">The interop versions served.</param>
    /// <param name="storage">The storage limits.</param>
    /// <param name="transfers">Where the transfer is counted.</param>
    /// <param name="uploadId">The upload's id, from the <c>Location</c> of its creation.</param>
    [Operation(FileOperation.Write)]
    public static async Task<IResult> Append(
        HttpContext context,
        [FromServices] UploadSessions sessions,
        [FromServices] IOptions<DraftUploadOptions> options,
        [FromServices] IOptions<StorageOptions> storage,
        [FromServices] TransferOrigins transfers,
        string uploadId)
    {
        var request = context.Request;
        var version = ServedVersion(request, options.Value);
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
        var outcome = await SessionUploads.AppendAsync(context, sessions, write, EndOf(complete), storage.Value.MaxFileSizeBytes, transfers.For(context, TransferProtocol.Draft));
        return Answer(context.Response, outcome, version, StatusCodes.Status204NoContent);
    }

    /// <summary>Upload cancellation: the session and its bytes are removed (a request still appending is ended first).</summary>
    /// <param name="context">The request.</param>
    /// <param name="sessions">The upload sessions.</param>
    /// <param name="options">The interop versions served.</param>
    /// <param name="uploadId">The upload's id, from the <c>Location</c> of its creation.</param>
    [Operation(FileOperation.ManageUpload)]
    public static async Task<IResult> Cancel(HttpContext context, [FromServices] UploadSessions sessions, [FromServices] IOptions<DraftUploadOptions> options, string uploadId)
    {
        var request = context.Request;
        ServedVersion(request, options.Value);
        await sessions.CancelAsync(uploadId, SessionUploads.Caller(context), RestUploads.ProtocolOf(request, TransferProtocol.Draft), context.RequestAborted);
        return Results.NoContent();
    }

    // An incomplete upload: the progress (201 for a creation, with Location and limits, else 204).
    // A complete one: what the target answers a plain upload (201 / 200 with the stored file), with
    // Upload-Complete: ?1 and the offset (draft, Upload Append: the response MUST include
    // Upload-Complete with a true value).
    private static IResult Answer(HttpResponse response, UploadSessionOutcome outcome, int version, int incompleteStatus)
    {
        DraftProtocol.WriteProgress(response, outcome.Session, version);
        if (outcome.Stored is not { } stored)
        {
            return Results.StatusCode(incompleteStatus);
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

    private static int ServedVersion(HttpRequest request, DraftUploadOptions options) =>
        DraftProtocol.InteropVersion(request) is { } version && options.InteropVersions.Contains(version) ? version : throw Unsupported(DraftProtocol.InteropVersion(request), options);

    private static FileTransferException Unsupported(int? version, DraftUploadOptions options) => new(
        ErrorReason.UnsupportedProtocolVersion,
        $"Upload-Draft-Interop-Version {version?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "(not an integer)"} is not served; this server speaks {string.Join(", ", options.InteropVersions)}.");
}
