using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Rest;

/// <summary>Stores and deletes single files; the body is the file, streamed straight to disk.</summary>
[ApiController]
[Route(Routes.Files)]
internal sealed class FileWritesController(FileOperations files, UploadSessions sessions, IOptions<StorageOptions> options, TransferOrigins transfers) : ControllerBase
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
    /// <param name="path">Name relative to the storage root, '/' separated (sent as one encoded value, `videos%2Fnotes.txt`, it names the same file); folders are created.</param>
    [HttpPut("{**path}")]
    [HttpPost("{**path}")]
    [Operation(FileOperation.Write)]
    [UploadProtocol(UploadProtocol.Plain)]
    [DisableFormValueModelBinding]
    [ProducesResponseType<UploadedFile>(StatusCodes.Status201Created)]
    [ProducesResponseType<UploadedFile>(StatusCodes.Status200OK)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status409Conflict, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status412PreconditionFailed, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status413PayloadTooLarge, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status507InsufficientStorage, "application/problem+json")]
    public async Task<IActionResult> Upload(string? path)
    {
        if (string.IsNullOrEmpty(path) && HttpMethods.IsPost(Request.Method))
        {
            // "POST api/files" that is not a form reaches this raw-body action with no name.
            return this.Problem(ErrorReason.UnsupportedMediaType, "POST api/files takes multipart/form-data; to send a raw body, name the file: POST api/files/{name}.");
        }

        // A request that creates a draft upload never gets here: routing chose DraftUploadsController.Create
        // for it (UploadProtocolPolicy); this operation describes both in the OpenAPI document.

        var aborted = HttpContext.RequestAborted;
        await using var upload = await files.BeginUploadAsync(Callers.Of(HttpContext), RestUploads.Describe(Request, path ?? "", Request.ContentLength, Request.Headers, transfers.For(HttpContext, TransferProtocol.Rest)), aborted);
        RestUploads.AllowBodyOf(HttpContext, options.Value.MaxFileSizeBytes);
        await upload.CopyFromAsync(Request.Body, aborted);
        return RestUploads.Stored(Response, await files.CommitAsync(upload, aborted));
    }

    /// <summary>
    /// What a write to <paramref name="path"/> supports (RFC 9110 9.3.7): resumable uploads as the IETF
    /// draft defines them, announced by <c>Accept-Patch: application/partial-upload</c>, within
    /// <c>Upload-Limit</c> (max-size, and max-age in seconds). No credential needed.
    /// </summary>
    /// <param name="path">Name relative to the storage root, '/' separated.</param>
    [HttpOptions("{**path}")]
    [AllowAnonymous]
    [ProducesResponseType(StatusCodes.Status204NoContent)]
    public IActionResult Options(string? path)
    {
        Response.Headers.Allow = "GET, HEAD, PUT, POST, DELETE, OPTIONS";
        Response.Headers["Accept-Patch"] = DraftProtocol.PartialUpload;
        DraftProtocol.WriteLimits(Response, options.Value.MaxFileSizeBytes, sessions.Expiry);
        return NoContent();
    }

    /// <summary>Deletes the file <paramref name="path"/>. Honours <c>If-Match</c>.</summary>
    /// <param name="path">Name relative to the storage root, '/' separated (sent as one encoded value, `videos%2Fnotes.txt`, it names the same file).</param>
    [HttpDelete("{**path}")]
    [Operation(FileOperation.Delete)]
    [ProducesResponseType(StatusCodes.Status204NoContent)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status404NotFound, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status412PreconditionFailed, "application/problem+json")]
    public async Task<IActionResult> Delete(string path)
    {
        await files.DeleteAsync(Callers.Of(HttpContext), RestUploads.ProtocolOf(Request, TransferProtocol.Rest), path, RestUploads.PreconditionsOf(Request), HttpContext.RequestAborted);
        return NoContent();
    }
}
