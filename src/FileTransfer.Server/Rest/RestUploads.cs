using FileTransfer.Core;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Primitives;
using Microsoft.Net.Http.Headers;

namespace FileTransfer.Server.Rest;

/// <summary>
/// What both REST upload shapes (raw body, multipart) share: reading the request's size, digest and
/// preconditions into the core's <see cref="UploadRequest"/>, narrowed by the caller's grant.
/// </summary>
internal static class RestUploads
{
    /// <summary>The upload the request asks for, or throws the core refusal of its headers before any byte is read.</summary>
    public static UploadRequest Describe(HttpRequest request, string name, bool rawBody)
    {
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
                throw new FileTransferException(ErrorReason.InvalidUploadStream, $"Invalid {header}: {error}");
            }

            if (expected is not null && !expected.AsSpan().SequenceEqual(sha256))
            {
                throw new FileTransferException(ErrorReason.InvalidUploadStream, "Content-Digest and Repr-Digest disagree.");
            }

            expected = sha256;
        }

        var described = new UploadRequest(name)
        {
            DeclaredLength = rawBody ? request.ContentLength : null,
            ExpectedSha256 = expected,
            Preconditions = PreconditionsOf(request),
        };
        return UploadGrant.Apply(request.HttpContext.User, described);
    }

    /// <summary>If-None-Match: * and If-Match (RFC 9110 13.1.1, 13.1.2) as the core's protocol-neutral conditions.</summary>
    public static Preconditions PreconditionsOf(HttpRequest request)
    {
        var headers = request.GetTypedHeaders();
        return new Preconditions(
            MustNotExist: headers.IfNoneMatch.Any(tag => tag.Equals(EntityTagHeaderValue.Any)),
            IfMatch: IfMatchOf(request.Headers.IfMatch, headers.IfMatch));
    }

    // An If-Match that does not parse as entity tags is handed to the core as sent, where it matches
    // no version (as a gRPC if_match of the same text does): a write or delete the client meant to
    // make conditional fails with 412 instead of replacing or deleting whatever is there.
    private static string[]? IfMatchOf(StringValues sent, IList<EntityTagHeaderValue> parsed) =>
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
}
