using FileTransfer.Server.Security;
using FileTransfer.Server.Storage;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Rest;

/// <summary>
/// What both REST upload shapes (raw body, multipart) share: reading the request's limits,
/// digest and preconditions into an <see cref="UploadRequest"/>, and mapping failures to problems.
/// </summary>
internal static class RestUploads
{
    /// <summary>Builds the upload request, or returns the problem that refuses it before any byte is read.</summary>
    public static UploadRequest? Describe(HttpRequest request, StoragePath target, bool rawBody, out ProblemDetails? problem)
    {
        problem = null;
        byte[]? expected = null;
        foreach (var header in new[] { ContentDigest.ContentDigestHeader, ContentDigest.ReprDigestHeader })
        {
            var field = request.Headers[header].ToString();
            if (field.Length == 0)
            {
                continue;
            }

            if (!ContentDigest.TryParseSha256(field, out var sha256, out var error))
            {
                request.HttpContext.Response.Headers[ContentDigest.WantContentDigestHeader] = "sha-256=10";
                problem = Problem(StatusCodes.Status400BadRequest, $"Invalid {header}", error);
                return null;
            }

            if (expected is not null && !expected.AsSpan().SequenceEqual(sha256))
            {
                problem = Problem(StatusCodes.Status400BadRequest, "Conflicting digests", "Content-Digest and Repr-Digest disagree.");
                return null;
            }

            expected = sha256;
        }

        var described = new UploadRequest(target)
        {
            DeclaredLength = rawBody ? request.ContentLength : null,
            ExpectedSha256 = expected,
            Preconditions = PreconditionsOf(request),
        };
        if (!UploadGrant.TryApply(request.HttpContext.User, described, out var granted))
        {
            problem = Problem(StatusCodes.Status400BadRequest, "Digest mismatch", UploadGrant.DigestConflict);
            return null;
        }

        return granted;
    }

    /// <summary>If-None-Match: * and If-Match (RFC 9110 13.1.1, 13.1.2) as the core's protocol-neutral conditions.</summary>
    public static Preconditions PreconditionsOf(HttpRequest request)
    {
        var headers = request.GetTypedHeaders();
        return new Preconditions(
            MustNotExist: headers.IfNoneMatch.Any(tag => tag.Equals(Microsoft.Net.Http.Headers.EntityTagHeaderValue.Any)),
            IfMatch: IfMatchOf(request.Headers.IfMatch, headers.IfMatch));
    }

    // An If-Match that does not parse as entity tags is handed to the core as sent, where it matches
    // no version (as a gRPC if_match of the same text does): a write or delete the client meant to
    // make conditional fails with 412 instead of replacing or deleting whatever is there.
    private static string[]? IfMatchOf(Microsoft.Extensions.Primitives.StringValues sent, IList<Microsoft.Net.Http.Headers.EntityTagHeaderValue> parsed) =>
        sent.Count == 0 ? null
        : parsed.Count > 0 ? [.. parsed.Select(tag => tag.ToString())]
        : [.. sent.Select(value => value ?? string.Empty)];

    /// <summary>
    /// Lifts Kestrel's request body limit for this request only, to the storage limit: the rest of
    /// the server keeps the framework default.
    /// </summary>
    public static void AllowBodyOf(HttpContext context, long maxBytes)
    {
        var feature = context.Features.Get<IHttpMaxRequestBodySizeFeature>();
        if (feature is { IsReadOnly: false })
        {
            feature.MaxRequestBodySize = maxBytes;
        }
    }

    public static ProblemDetails ProblemFor(UploadException exception) => exception.Error switch
    {
        UploadError.TooLarge => Problem(StatusCodes.Status413PayloadTooLarge, "File too large", exception.Message),
        UploadError.DigestMismatch => Problem(StatusCodes.Status400BadRequest, "Digest mismatch", exception.Message),
        UploadError.LengthMismatch => Problem(StatusCodes.Status400BadRequest, "Incomplete body", exception.Message),
        UploadError.DiskFull => Problem(StatusCodes.Status507InsufficientStorage, "Insufficient storage", exception.Message),
        UploadError.AlreadyExists or UploadError.PreconditionFailed => Problem(StatusCodes.Status412PreconditionFailed, "Precondition failed", exception.Message),
        UploadError.NameConflict => Problem(StatusCodes.Status409Conflict, "Name conflict", exception.Message),
        _ => Problem(StatusCodes.Status500InternalServerError, "Upload failed", "The upload failed; nothing was stored."),
    };

    /// <summary>Kestrel's own refusals while the body streams: too large (413) or cut short (400).</summary>
    public static ProblemDetails ProblemFor(BadHttpRequestException exception) =>
        Problem(exception.StatusCode, exception.StatusCode == StatusCodes.Status413PayloadTooLarge ? "File too large" : "Bad request body", exception.Message);

    /// <summary>The client went away (disconnect, reset, cancel): nobody is left to answer.</summary>
    public static bool IsClientAbort(Exception exception, HttpContext context) =>
        exception is OperationCanceledException or IOException && context.RequestAborted.IsCancellationRequested;

    public static ProblemDetails Problem(int status, string title, string? detail) =>
        new() { Status = status, Title = title, Detail = detail };

    /// <summary>Answers with <paramref name="problem"/> through the controller's problem factory (type, traceId, problem+json).</summary>
    public static ObjectResult Problem(this ControllerBase controller, ProblemDetails problem) =>
        controller.Problem(problem.Detail, statusCode: problem.Status, title: problem.Title);
}
