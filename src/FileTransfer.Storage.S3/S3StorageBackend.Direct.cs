using Amazon.S3;
using Amazon.S3.Model;
using FileTransfer.Core;

namespace FileTransfer.Storage.S3;

/// <summary>Presigned downloads: the store serves the bytes, the server only decides who may fetch them.</summary>
internal sealed partial class S3StorageBackend : IDirectDownloads
{
    public bool IsEnabled => options.Value.RedirectDownloads;

    /// <summary>
    /// A SigV4 presigned GET of the version's key, valid <see cref="S3StorageOptions.RedirectSeconds"/>
    /// (at most 7 days, past which the SDK would silently sign with SigV2) and never past
    /// <see cref="DirectDownloadRequest.NotAfter"/>, with the content type and disposition the server
    /// would send as response-header overrides. Signing is local: no request reaches the store.
    /// </summary>
    public DirectDownload CreateUrl(StoredObject version, DirectDownloadRequest request)
    {
        var now = time.GetUtcNow();
        var expires = now.AddSeconds(options.Value.RedirectSeconds);
        if (request.NotAfter is { } notAfter && notAfter < expires)
        {
            // A signed link that expires sooner: the URL it leads to dies with it. A second is kept in
            // hand (the SDK counts the lifetime from its own clock, corrected by the store's whole-second
            // Date), and SigV4 needs at least one.
            expires = notAfter.AddSeconds(-1) > now.AddSeconds(1) ? notAfter.AddSeconds(-1) : now.AddSeconds(1);
        }

        var presign = new GetPreSignedUrlRequest
        {
            BucketName = bucket.Name,
            Key = bucket.KeyOf(version.Name),
            Verb = HttpVerb.GET,
            Expires = expires.UtcDateTime,
            // The SDK signs https unless told otherwise, whatever the endpoint says.
            Protocol = bucket.PublicEndpoint.Scheme == Uri.UriSchemeHttp ? Protocol.HTTP : Protocol.HTTPS,
            ResponseHeaderOverrides = { ContentType = request.ContentType, ContentDisposition = request.ContentDisposition },
        };
        return new DirectDownload(new Uri(bucket.Presigner.GetPreSignedURL(presign)), expires);
    }

    /// <summary>
    /// What Ceph RGW 16 decides right on a GET (measured; the table in docs/s3.md, checked by
    /// <c>CephRgwPresignedUrlTests</c>): <c>If-Modified-Since</c> and <c>If-Unmodified-Since</c>, and
    /// <c>If-Match</c> / <c>If-None-Match</c> with one strong entity tag. It ignores <c>If-Range</c> (a
    /// stale one still gets 206), answers a list of tags or <c>*</c> in <c>If-Match</c> with 412 even
    /// when one matches, and ignores a list, <c>*</c> or a weak tag in <c>If-None-Match</c>. The server
    /// cannot tell which store it talks to, so it assumes no more than that of any.
    /// </summary>
    public bool Honours(ForwardedConditions conditions) => StoreHonours(conditions);

    /// <inheritdoc cref="Honours"/>
    internal static bool StoreHonours(ForwardedConditions conditions) =>
        !conditions.IfRange && AtMostOneStrongTag(conditions.IfMatch) && AtMostOneStrongTag(conditions.IfNoneMatch);

    private static bool AtMostOneStrongTag(IReadOnlyList<string> tags) =>
        tags.Count == 0 || (tags.Count == 1 && tags[0] is { Length: >= 2 } tag && tag[0] == '"' && tag[^1] == '"' && tag.IndexOf('"', 1) == tag.Length - 1);
}
