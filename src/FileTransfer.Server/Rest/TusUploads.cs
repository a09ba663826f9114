using System.Globalization;
using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Rest;

/// <summary>
/// tus 1.0.0 at <c>api/uploads</c>: the core protocol (HEAD, PATCH) and the extensions creation,
/// creation-with-upload, creation-defer-length, termination, expiration and checksum, each request
/// translated into the core's upload sessions. Every answer carries <c>Tus-Resumable</c>.
/// </summary>
internal sealed class TusUploads(UploadSessions sessions, IOptions<StorageOptions> storage)
{
    /// <summary>tus "OPTIONS": the versions, extensions, size limit and checksum algorithms served.</summary>
    public IActionResult Discover(HttpResponse response)
    {
        var headers = response.Headers;
        headers[TusProtocol.ResumableHeader] = TusProtocol.Version;
        headers[TusProtocol.VersionHeader] = TusProtocol.Version;
        headers[TusProtocol.ExtensionHeader] = TusProtocol.Extensions;
        headers[TusProtocol.MaxSizeHeader] = storage.Value.MaxFileSizeBytes.ToString(CultureInfo.InvariantCulture);
        headers[TusProtocol.ChecksumAlgorithmHeader] = string.Join(',', RequestChecksum.Algorithms);
        return new NoContentResult();
    }

    /// <summary>
    /// tus creation: <c>Upload-Length</c> (or <c>Upload-Defer-Length: 1</c>), the name from
    /// <c>Upload-Metadata</c>, the whole file's SHA-256 from <c>Repr-Digest</c> or the <c>sha256</c>
    /// metadata; with an <c>application/offset+octet-stream</c> body, its first bytes
    /// (creation-with-upload). 201 with <c>Location</c>. An upload of length 0 is complete at once.
    /// </summary>
    public async Task<IActionResult> CreateAsync(HttpContext context)
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
            var outcome = await SessionUploads.AppendAsync(context, sessions, new UploadWriteRequest(session.Id, caller, 0) { Checksum = checksum, Protocol = upload.Protocol }, UploadEnd.AtLength, storage.Value.MaxFileSizeBytes);
            session = outcome.Session;
            response.Headers[TusProtocol.OffsetHeader] = session.Offset.ToString(CultureInfo.InvariantCulture);
            SessionUploads.WriteCompleted(response, session);
        }
        else
        {
            checksum?.Dispose();
        }

        TusProtocol.WriteExpiry(response, session);
        return new StatusCodeResult(StatusCodes.Status201Created);
    }

    /// <summary>tus HEAD: the durable offset, the length (or deferred), the metadata as sent, the expiry.</summary>
    public async Task<IActionResult> StatusAsync(HttpContext context, string uploadId)
    {
        TusProtocol.AnswerAsTus(context.Response);
        TusProtocol.CheckVersion(context.Request);
        var session = await sessions.GetAsync(uploadId, SessionUploads.Caller(context), context.RequestAborted);
        TusProtocol.WriteStatus(context.Response, session);
        SessionUploads.WriteCompleted(context.Response, session);
        return new OkResult();
    }

    /// <summary>
    /// tus PATCH: the body appended at <c>Upload-Offset</c> (409 when it is not the durable offset),
    /// checked against <c>Upload-Checksum</c> (460), the length declared now if it was deferred; the
    /// upload is complete, verified and stored when the offset reaches the length.
    /// </summary>
    public async Task<IActionResult> AppendAsync(HttpContext context, string uploadId)
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
        var outcome = await SessionUploads.AppendAsync(context, sessions, write, UploadEnd.AtLength, storage.Value.MaxFileSizeBytes);
        response.Headers[TusProtocol.OffsetHeader] = outcome.Session.Offset.ToString(CultureInfo.InvariantCulture);
        TusProtocol.WriteExpiry(response, outcome.Session);
        SessionUploads.WriteCompleted(response, outcome.Session);
        return new NoContentResult();
    }

    /// <summary>tus termination: the session and its bytes are removed.</summary>
    public async Task<IActionResult> CancelAsync(HttpContext context, string uploadId)
    {
        TusProtocol.AnswerAsTus(context.Response);
        TusProtocol.CheckVersion(context.Request);
        await sessions.CancelAsync(uploadId, SessionUploads.Caller(context), RestUploads.ProtocolOf(context.Request, TransferProtocol.Tus), context.RequestAborted);
        return new NoContentResult();
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
