using FileTransfer.Server.Storage;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Rest;

/// <summary>Stores and deletes single files; the body is the file, streamed straight to disk.</summary>
[ApiController]
[Route("api/files")]
internal sealed partial class FileWritesController(
    StoragePathResolver resolver,
    FileStore store,
    IOptions<StorageOptions> options,
    ILogger<FileWritesController> logger) : ControllerBase
{
    /// <summary>
    /// Uploads the request body as the file <paramref name="path"/> (<c>curl -T file URL</c>,
    /// <c>curl --data-binary @file URL</c>): the bytes are stored as sent whatever the
    /// <c>Content-Type</c> says, form types included; the file's type comes from its extension.
    /// 201 when created, 200 when replaced. Send <c>Content-Digest: sha-256=:base64:</c> to have
    /// the bytes verified before commit, <c>If-None-Match: *</c> to never replace, <c>If-Match</c>
    /// to replace only the version you hold.
    /// </summary>
    /// <param name="path">Name relative to the storage root, '/' separated; folders are created.</param>
    [HttpPut("{**path}")]
    [HttpPost("{**path}")]
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
            return Problem("POST api/files takes multipart/form-data; to send a raw body, name the file: POST api/files/{name}.", statusCode: StatusCodes.Status415UnsupportedMediaType, title: "Unsupported media type");
        }

        if (!resolver.TryResolve(path, out var target, out var rejection))
        {
            return Problem(rejection.Reason, statusCode: StatusCodes.Status400BadRequest, title: "Invalid file name");
        }

        var request = RestUploads.Describe(Request, target, rawBody: true, out var refusal);
        if (request is null)
        {
            return this.Problem(refusal!);
        }

        var aborted = HttpContext.RequestAborted;
        try
        {
            await using var session = store.BeginUpload(request);
            RestUploads.AllowBodyOf(HttpContext, options.Value.MaxFileSizeBytes);
            await session.CopyFromAsync(Request.Body, aborted);
            var result = await session.CommitAsync(aborted);

            var stored = UploadedFile.From(result);
            Response.Headers.ETag = stored.ETag;
            Response.Headers[ContentDigest.ReprDigestHeader] = ContentDigest.Format(result.Sha256);
            return result.Replaced
                ? Ok(stored)
                : Created(UploadedFile.LocationOf(stored.Name), stored);
        }
        catch (UploadException ex)
        {
            LogRefused(logger, target.Name, ex.Error, ex.Message);
            return this.Problem(RestUploads.ProblemFor(ex));
        }
        catch (BadHttpRequestException ex)
        {
            return this.Problem(RestUploads.ProblemFor(ex));
        }
        catch (Exception ex) when (RestUploads.IsClientAbort(ex, HttpContext))
        {
            LogAborted(logger, target.Name);
            return new EmptyResult();
        }
    }

    /// <summary>Deletes the file <paramref name="path"/>. Honours <c>If-Match</c>.</summary>
    /// <param name="path">Name relative to the storage root, '/' separated.</param>
    [HttpDelete("{**path}")]
    [ProducesResponseType(StatusCodes.Status204NoContent)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status404NotFound, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status412PreconditionFailed, "application/problem+json")]
    public async Task<IActionResult> Delete(string path)
    {
        if (!resolver.TryResolve(path, out var target, out var rejection))
        {
            return Problem(rejection.Reason, statusCode: StatusCodes.Status400BadRequest, title: "Invalid file name");
        }

        try
        {
            return await store.DeleteAsync(target, RestUploads.PreconditionsOf(Request), HttpContext.RequestAborted)
                ? NoContent()
                : Problem($"There is no file named '{target.Name}'.", statusCode: StatusCodes.Status404NotFound, title: "File not found");
        }
        catch (UploadException ex)
        {
            return this.Problem(RestUploads.ProblemFor(ex));
        }
    }

    [LoggerMessage(EventId = 40, Level = LogLevel.Information, Message = "Upload of {Name} refused: {Error} ({Reason})")]
    private static partial void LogRefused(ILogger logger, string name, UploadError error, string reason);

    [LoggerMessage(EventId = 41, Level = LogLevel.Debug, Message = "Upload of {Name} aborted by the client; nothing stored")]
    private static partial void LogAborted(ILogger logger, string name);
}
