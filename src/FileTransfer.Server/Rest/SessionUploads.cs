using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Security;
using Microsoft.Net.Http.Headers;

namespace FileTransfer.Server.Rest;

/// <summary>
/// What tus and the IETF draft share on REST: the caller as the core sees it, a session's address,
/// and one append of a request body to a session (the body limit lifted for this request only; the
/// request ended at once when another request cancels the session).
/// </summary>
internal static class SessionUploads
{
    /// <summary>The caller of a session request (the key, token or link that owns, or may use, sessions).</summary>
    public static Caller Caller(HttpContext context) => Callers.Of(context);

    /// <summary>
    /// The session's address, <c>/api/uploads/{id}</c>. A session begun with a signed link is
    /// continued with the same link, so its address carries the link's <c>sig</c> as the request did:
    /// a draft client uses <c>Location</c> as it is.
    /// </summary>
    public static string Location(HttpRequest request, string uploadId)
    {
        var location = Routes.UploadLocation(uploadId);
        return request.HttpContext.User.HasClaim(c => c.Type == FileTransferClaims.LinkId) && request.Query[SignedLink.QueryParameter] is [{ } token]
            ? $"{location}?{SignedLink.QueryParameter}={Uri.EscapeDataString(token)}"
            : location;
    }

    /// <summary>
    /// Creates the session; <paramref name="checksum"/>, meant for the request's first bytes, is
    /// disposed when the creation fails.
    /// </summary>
    public static async Task<UploadSession> CreateAsync(HttpContext context, UploadSessions sessions, UploadRequest upload, Caller caller, string? metadata, RequestChecksum? checksum)
    {
        try
        {
            return await sessions.CreateAsync(upload, caller, metadata, context.RequestAborted);
        }
        catch
        {
            checksum?.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Appends the request body to the session and ends the request's bytes with <paramref name="end"/>;
    /// the append is counted as a transfer of <paramref name="origin"/>'s protocol (tus or the draft).
    /// </summary>
    public static async Task<UploadSessionOutcome> AppendAsync(HttpContext context, UploadSessions sessions, UploadWriteRequest request, UploadEnd end, long maxBodyBytes, TransferOrigin origin)
    {
        var aborted = context.RequestAborted;
        RestUploads.AllowBodyOf(context, maxBodyBytes);
        await using var write = await sessions.BeginWriteAsync(request with { TransferOrigin = origin }, aborted);

        // Cancelled by another request (DELETE): end this one now (the draft's Upload Cancellation).
        using var stop = write.Stopped.Register(context.Abort);
        await write.CopyFromAsync(context.Request.Body, aborted);
        return await write.FinishAsync(end, aborted);
    }

    /// <summary>Where the session is complete, what was stored (<see cref="WriteStored"/>; tus has no answer of its own for it).</summary>
    public static void WriteCompleted(HttpResponse response, UploadSession session)
    {
        if (session.Completed is { } completed)
        {
            WriteStored(response, completed.Stored);
        }
    }

    /// <summary>The stored file, as a plain upload's answer gives it: its ETag, its SHA-256 and where it is.</summary>
    public static void WriteStored(HttpResponse response, StoredObject stored)
    {
        response.Headers.ETag = stored.ETag;
        if (stored.Sha256 is { } sha256)
        {
            response.Headers[ContentDigest.ReprDigestHeader] = ContentDigest.Format(sha256);
        }

        response.Headers[HeaderNames.ContentLocation] = UploadedFile.LocationOf(stored.Name);
    }

    /// <summary>415 for a body of a type the protocol does not take.</summary>
    public static ProblemResult UnsupportedMediaType(HttpContext context, string detail) =>
        HttpErrors.Result(context, ErrorReason.UnsupportedMediaType, detail);

    /// <summary>A digest field's sha-256 (RFC 9530) in the request, or null when the request does not send the field.</summary>
    public static byte[]? Sha256Of(HttpContext context, string header) => RestUploads.Sha256Of(context, context.Request.Headers, header);
}
