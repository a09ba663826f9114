using FileTransfer.Core;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Primitives;
using Microsoft.Net.Http.Headers;

namespace FileTransfer.Server.Rest;

/// <summary>
/// What both REST upload shapes (raw body, multipart) share: reading the request's size, digest and
/// preconditions into the core's <see cref="UploadRequest"/> (the core narrows it by the caller's grant).
/// </summary>
internal static class RestUploads
{
    /// <summary>
    /// The upload the request asks for, or throws the core refusal of its headers before any byte is
    /// read. <paramref name="digestHeaders"/> hold the <c>Content-Digest</c> / <c>Repr-Digest</c> that
    /// cover exactly these bytes: the request's for a raw body, a part's own for a multipart part
    /// (RFC 9530 3: a request's digest covers the whole multipart body, not each part).
    /// </summary>
    public static UploadRequest Describe(HttpRequest request, string name, long? declaredLength, IDictionary<string, StringValues> digestHeaders, TransferOrigin origin)
    {
        return new UploadRequest(name)
        {
            DeclaredLength = declaredLength,
            ExpectedSha256 = ExpectedSha256(request.HttpContext, digestHeaders),
            Preconditions = PreconditionsOf(request),
            TransferOrigin = origin,
            Protocol = ProtocolOf(request, TransferProtocol.Rest),
        };
    }

    /// <summary>The header the web page sends on its requests (<c>FileTransfer-Client: web</c>), so that events say <c>web</c>.</summary>
    public const string ClientHeader = "FileTransfer-Client";

    /// <summary>
    /// What events and hooks report a request came over: <paramref name="wire"/> (rest, tus, draft), or
    /// <c>web</c> for the web page's own requests. Reported only, never trusted for a decision.
    /// </summary>
    public static TransferProtocol ProtocolOf(HttpRequest request, TransferProtocol wire) =>
        request.Headers[ClientHeader] is [{ } client] && client.Equals("web", StringComparison.OrdinalIgnoreCase) ? TransferProtocol.Web : wire;

    /// <summary>
    /// The SHA-256 that <c>Content-Digest</c> and <c>Repr-Digest</c> in <paramref name="headers"/>
    /// announce, or null when neither is sent. A malformed one, or two that disagree, are refused
    /// (and the response asks for sha-256, RFC 9530 4).
    /// </summary>
    public static byte[]? ExpectedSha256(HttpContext context, IDictionary<string, StringValues> headers)
    {
        byte[]? expected = null;
        foreach (var header in new[] { ContentDigest.ContentDigestHeader, ContentDigest.ReprDigestHeader })
        {
            if (Sha256Of(context, headers, header) is not { } sha256)
            {
                continue;
            }

            if (expected is not null && !expected.AsSpan().SequenceEqual(sha256))
            {
                throw new FileTransferException(ErrorReason.InvalidUploadStream, "Content-Digest and Repr-Digest disagree.");
            }

            expected = sha256;
        }

        return expected;
    }

    /// <summary>
    /// A digest field's sha-256 (RFC 9530) in <paramref name="headers"/>, or null when the field is
    /// not sent. A malformed one is refused, and the response asks for sha-256 (RFC 9530 4).
    /// </summary>
    public static byte[]? Sha256Of(HttpContext context, IDictionary<string, StringValues> headers, string header)
    {
        var field = headers.TryGetValue(header, out var values) ? values.ToString() : "";
        if (field.Length == 0)
        {
            return null;
        }

        if (!ContentDigest.TryParseSha256(field, out var sha256, out var error))
        {
            context.Response.Headers[ContentDigest.WantContentDigestHeader] = "sha-256=10";
            throw new FileTransferException(ErrorReason.InvalidUploadStream, $"Invalid {header}: {error}");
        }

        return sha256;
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
    /// The answer to a stored upload, whichever protocol carried its bytes (a plain upload, the
    /// draft's last append): 201 with <c>Location</c> for a new file, 200 for a replaced one, with
    /// the stored file, its ETag and its <c>Repr-Digest</c>.
    /// </summary>
    public static IResult Stored(HttpResponse response, UploadResult result)
    {
        var file = UploadedFile.From(result);
        response.Headers.ETag = file.ETag;
        response.Headers[ContentDigest.ReprDigestHeader] = ContentDigest.Format(result.Sha256);
        return result.Replaced ? Results.Ok(file) : Results.Created(UploadedFile.LocationOf(file.Name), file);
    }

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
