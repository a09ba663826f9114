using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Rest;

/// <summary>Stores and deletes single files; the body is the file, streamed straight to disk.</summary>
internal static class FileWrites
{
    /// <summary>
    /// Uploads the request body as the file <paramref name="path"/> (<c>curl -T file URL</c>,
    /// <c>curl --data-binary @file URL</c>): the bytes are stored as sent whatever the
    /// <c>Content-Type</c> says, form types included; the file's type comes from its extension.
    /// 201 when created, 200 when replaced. Send <c>Content-Digest: sha-256=:base64:</c> to have
    /// the bytes verified before commit, <c>If-None-Match: *</c> to never replace, <c>If-Match</c>
    /// to replace only the version you hold. With <c>Upload-Draft-Interop-Version</c> and
    /// <c>Upload-Complete</c> the request creates a resumable upload of this file (the IETF
    /// resumable-upload draft): 201 with its <c>Location</c> under <c>api/uploads/</c> while incomplete,
    /// this same answer once complete (docs/resumable-uploads.md).
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="files">The storage core.</param>
    /// <param name="options">The storage limits.</param>
    /// <param name="transfers">Where the transfer is counted.</param>
    /// <param name="path">Name relative to the storage root, '/' separated (sent as one encoded value, `videos%2Fnotes.txt`, it names the same file); folders are created.</param>
    [Operation(FileOperation.Write)]
    [UploadProtocol(UploadProtocol.Plain)]
    [ProducesResponseType<UploadedFile>(StatusCodes.Status201Created)]
    [ProducesResponseType<UploadedFile>(StatusCodes.Status200OK)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status409Conflict, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status412PreconditionFailed, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status413PayloadTooLarge, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status507InsufficientStorage, "application/problem+json")]
    public static async Task<IResult> Upload(
        HttpContext context, [FromServices] FileOperations files, [FromServices] IOptions<StorageOptions> options, [FromServices] TransferOrigins transfers, string? path)
    {
        // "POST api/files" is a form's (MultipartUploads), whatever its type. A request that creates a
        // draft upload never gets here: routing chose DraftUploads.Create for it (UploadProtocolPolicy);
        // this operation describes both in the OpenAPI document.
        var request = context.Request;
        var aborted = context.RequestAborted;
        await using var upload = await files.BeginUploadAsync(Callers.Of(context), RestUploads.Describe(request, path ?? "", request.ContentLength, request.Headers, transfers.For(context, TransferProtocol.Rest)), aborted);
        RestUploads.AllowBodyOf(context, options.Value.MaxFileSizeBytes);
        await upload.CopyFromAsync(request.Body, aborted);
        return RestUploads.Stored(context.Response, await files.CommitAsync(upload, aborted));
    }

    /// <summary>
    /// What a write to <paramref name="path"/> supports (RFC 9110 9.3.7): resumable uploads as the IETF
    /// draft defines them, announced by <c>Accept-Patch: application/partial-upload</c>, within
    /// <c>Upload-Limit</c> (max-size, and max-age in seconds). No credential needed.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="sessions">The upload sessions, for their expiry.</param>
    /// <param name="options">The storage limits.</param>
    /// <param name="path">Name relative to the storage root, '/' separated.</param>
    [AllowAnonymous]
    [ProducesResponseType(StatusCodes.Status204NoContent)]
    public static IResult Options(HttpContext context, [FromServices] UploadSessions sessions, [FromServices] IOptions<StorageOptions> options, string? path)
    {
        var response = context.Response;
        response.Headers.Allow = "GET, HEAD, PUT, POST, DELETE, OPTIONS";
        response.Headers["Accept-Patch"] = DraftProtocol.PartialUpload;
        DraftProtocol.WriteLimits(response, options.Value.MaxFileSizeBytes, sessions.Expiry);
        return Results.NoContent();
    }

    /// <summary>Deletes the file <paramref name="path"/>. Honours <c>If-Match</c>.</summary>
    /// <param name="context">The request.</param>
    /// <param name="files">The storage core.</param>
    /// <param name="path">Name relative to the storage root, '/' separated (sent as one encoded value, `videos%2Fnotes.txt`, it names the same file).</param>
    [Operation(FileOperation.Delete)]
    [ProducesResponseType(StatusCodes.Status204NoContent)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status404NotFound, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status412PreconditionFailed, "application/problem+json")]
    public static async Task<IResult> Delete(HttpContext context, [FromServices] FileOperations files, string path)
    {
        var request = context.Request;
        await files.DeleteAsync(Callers.Of(context), RestUploads.ProtocolOf(request, TransferProtocol.Rest), path, RestUploads.PreconditionsOf(request), context.RequestAborted);
        return Results.NoContent();
    }
}
