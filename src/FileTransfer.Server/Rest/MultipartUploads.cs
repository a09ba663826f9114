using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.WebUtilities;
using Microsoft.Extensions.Options;
using Microsoft.Net.Http.Headers;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Browser-form and <c>curl -F</c> uploads. Parts are read one after another with a streaming
/// multipart reader (never IFormFile, which buffers), each into its own temporary file that is
/// closed before the next part is read; all are committed together only after the whole request
/// arrived, so a failed request (or a precondition that fails for one part) stores none of them.
/// A form carries at most <see cref="StorageOptions.MaxFilesPerRequest"/> files.
/// </summary>
internal static class MultipartUploads
{
    private const string FormType = "multipart/form-data";

    // RFC 2046 5.1.1: a boundary is at most 70 characters.
    private const int MaxBoundaryLength = 70;

    /// <summary>
    /// Uploads one or several files from a <c>multipart/form-data</c> body (<c>curl -F file=@a -F file=@b URL</c>).
    /// Each file part is stored under its file name, inside <paramref name="folder"/> when given.
    /// The whole request may carry at most <c>Storage:MaxFileSizeBytes</c>, in at most
    /// <c>Storage:MaxFilesPerRequest</c> files (413 beyond either). <c>If-None-Match</c> / <c>If-Match</c>
    /// apply to every part; one that fails (412) stores none of them.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="files">The storage core.</param>
    /// <param name="options">The storage limits.</param>
    /// <param name="transfers">Where the transfers are counted.</param>
    /// <param name="folder">Folder (relative to the storage root) to store the files in.</param>
    [Operation(FileOperation.Write)]
    [ProducesResponseType<IReadOnlyList<UploadedFile>>(StatusCodes.Status201Created)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status409Conflict, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status412PreconditionFailed, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status413PayloadTooLarge, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status507InsufficientStorage, "application/problem+json")]
    public static async Task<IResult> UploadForm(
        HttpContext context, [FromServices] FileOperations files, [FromServices] IOptions<StorageOptions> options, [FromServices] TransferOrigins transfers, [FromQuery] string? folder)
    {
        var request = context.Request;
        if (!MediaTypeHeaderValue.TryParse(request.ContentType, out var type) || !type.MediaType.Equals(FormType, StringComparison.OrdinalIgnoreCase))
        {
            // "api/files" names no file, so a raw body has nowhere to go (routing sends every POST here).
            return HttpErrors.Result(context, ErrorReason.UnsupportedMediaType, "POST api/files takes multipart/form-data; to send a raw body, name the file: POST api/files/{name}.");
        }

        var boundary = HeaderUtilities.RemoveQuotes(type.Boundary).Value;
        if (string.IsNullOrEmpty(boundary) || boundary.Length > MaxBoundaryLength)
        {
            return HttpErrors.Result(context, ErrorReason.InvalidUploadStream, "The multipart boundary is missing or longer than 70 characters.");
        }

        var limits = options.Value;
        RestUploads.AllowBodyOf(context, limits.MaxFileSizeBytes);

        // The request's own digest covers the whole multipart body (RFC 9530 3): it is checked
        // against every byte of the body before anything is committed. A part's digest is in the
        // part's headers.
        var bodyDigest = RestUploads.ExpectedSha256(context, request.Headers);
        using var body = new HashingStream(request.Body);
        var reader = new MultipartReader(boundary, body);
        var staged = new List<Upload>();
        var aborted = context.RequestAborted;

        // Each file of the form is a transfer of its own, all ended with the request's answer.
        var origin = transfers.For(context, TransferProtocol.Rest);
        try
        {
            for (var section = await reader.ReadNextSectionAsync(aborted); section is not null; section = await reader.ReadNextSectionAsync(aborted))
            {
                var fileName = section.AsFileSection()?.FileName;
                if (string.IsNullOrEmpty(fileName))
                {
                    continue; // a plain form field: nothing to store
                }

                if (staged.Count == limits.MaxFilesPerRequest)
                {
                    // RFC 9110 15.5.14: the content is more than the server is willing to process
                    // in one request. 413, like the size limit, tells the client to send less per
                    // request (here: the other files in another one), where 400 would call the form malformed.
                    return HttpErrors.Result(context, ErrorReason.TooManyFiles, $"A form may carry at most {limits.MaxFilesPerRequest} files; send the others in another request.");
                }

                var name = string.IsNullOrEmpty(folder) ? fileName : $"{folder.TrimEnd('/')}/{fileName}";
                if (staged.Exists(upload => upload.Name == name))
                {
                    // Stored one after the other, the second part would silently replace the
                    // first, or fail a precondition the first one broke: the client must choose.
                    return HttpErrors.Result(context, ErrorReason.InvalidUploadStream, $"The form carries '{name}' more than once; send one part per file.");
                }

                var upload = await files.BeginUploadAsync(Callers.Of(context), RestUploads.Describe(request, name, declaredLength: null, section.Headers ?? [], origin), aborted);
                staged.Add(upload);
                await upload.CopyFromAsync(section.Body, aborted);

                // One open file per request, not per part: the next part may be the ten-thousandth.
                await upload.SealAsync(aborted);
            }

            if (staged.Count == 0)
            {
                return HttpErrors.Result(context, ErrorReason.InvalidUploadStream, "The form carries no file part.");
            }

            if (bodyDigest is not null && !await body.HasSha256Async(bodyDigest, aborted))
            {
                return HttpErrors.Result(context, ErrorReason.DigestMismatch, "The SHA-256 of the request body does not match its Content-Digest; nothing was stored.");
            }

            // All or nothing: a precondition that fails for one part stores none of them.
            var stored = (await files.CommitAllAsync(staged, aborted)).Select(UploadedFile.From).ToList();
            return Results.Created(UploadedFile.LocationOf(stored[0].Name), stored);
        }
        catch (InvalidDataException ex)
        {
            return HttpErrors.Result(context, ErrorReason.InvalidUploadStream, ex.Message);
        }
        finally
        {
            foreach (var upload in staged)
            {
                await upload.DisposeAsync();
            }
        }
    }
}
