using System.Security.Cryptography;

namespace FileTransfer.Storage.S3;

/// <summary>
/// The store's own ETags are the versions' ETags: a client's <c>If-Match</c>, <c>If-None-Match</c> and
/// <c>If-Range</c> then mean the same to this server and to the store behind a presigned URL. They are
/// content hashes (MD5 of the bytes; for a multipart upload the MD5 of the parts' MD5s and the part
/// count), so they change whenever the bytes do, as a strong validator must (RFC 9110 8.8.3).
/// </summary>
internal static class S3ETags
{
    /// <summary>The ETag quoted, as HTTP and the core carry it (stores differ in whether they quote it).</summary>
    public static string Quoted(string etag) =>
        etag.Length >= 2 && etag[0] == '"' && etag[^1] == '"' ? etag : $"\"{etag}\"";

    /// <summary>The ETag without quotes: RGW 16 matches only this form in a PutObject's <c>If-Match</c>.</summary>
    public static string Bare(string etag) => etag.Trim('"');

    /// <summary>
    /// The ETag a store gives a completed multipart upload, computed from its parts' ETags (each the
    /// hex MD5 of the part): known before the completion, so that the version's digest can be stored
    /// under it before the version becomes visible.
    /// </summary>
    public static string OfMultipart(IReadOnlyList<string> partETags)
    {
        var md5s = new byte[partETags.Count * MD5.HashSizeInBytes];
        for (var i = 0; i < partETags.Count; i++)
        {
            Convert.FromHexString(Bare(partETags[i])).CopyTo(md5s, i * MD5.HashSizeInBytes);
        }

        // Not a security use: this is the store's published ETag algorithm.
#pragma warning disable CA5351
        var hash = MD5.HashData(md5s);
#pragma warning restore CA5351
        return $"\"{Convert.ToHexStringLower(hash)}-{partETags.Count}\"";
    }

    /// <summary>Whether <paramref name="etag"/> has the part-ETag shape (32 hex digits) this computation needs.</summary>
    public static bool IsMd5(string etag) => Bare(etag) is { Length: 32 } bare && bare.All(char.IsAsciiHexDigit);
}
