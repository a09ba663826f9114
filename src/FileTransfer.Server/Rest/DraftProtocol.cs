using System.Globalization;
using FileTransfer.Core;

namespace FileTransfer.Server.Rest;

/// <summary>
/// The IETF "Resumable Uploads for HTTP" draft (draft-ietf-httpbis-resumable-upload, revision 15
/// semantics) on the wire: its structured header fields (RFC 9651) read into the core's terms, and
/// the session written back. Interop versions differ in spelling only where a shipping client needs
/// it: version 3 (draft 01) says <c>Upload-Incomplete</c> where later ones say <c>Upload-Complete</c>,
/// and only from version 6 (draft 04) must an append be <c>application/partial-upload</c>.
/// </summary>
internal static class DraftProtocol
{
    public const string InteropVersionHeader = "Upload-Draft-Interop-Version";
    public const string CompleteHeader = "Upload-Complete";
    public const string IncompleteHeader = "Upload-Incomplete";
    public const string OffsetHeader = "Upload-Offset";
    public const string LengthHeader = "Upload-Length";
    public const string LimitHeader = "Upload-Limit";

    /// <summary>The body type of an append (draft, Media Type application/partial-upload).</summary>
    public const string PartialUpload = "application/partial-upload";

    /// <summary>The first interop version that spells completeness <c>Upload-Complete</c>.</summary>
    private const int FirstWithUploadComplete = 4;

    /// <summary>The first interop version whose appends must be <see cref="PartialUpload"/>.</summary>
    private const int FirstWithPartialUpload = 6;

    /// <summary>The interop version the request names, or null when it names none (or no integer).</summary>
    public static int? InteropVersion(HttpRequest request) =>
        Integer(request.Headers[InteropVersionHeader].ToString()) is { } version and <= int.MaxValue ? (int)version : null;

    /// <summary>
    /// Whether this request's content ends the upload: <c>Upload-Complete</c> (an sf-boolean, RFC 9651
    /// 3.3.6), or for version 3 the opposite of <c>Upload-Incomplete</c>; null when the request does
    /// not say (or says it malformed, which the draft has ignored like absence).
    /// </summary>
    public static bool? IsComplete(HttpRequest request, int version) =>
        version < FirstWithUploadComplete
            ? !Boolean(request.Headers[IncompleteHeader].ToString())
            : Boolean(request.Headers[CompleteHeader].ToString());

    /// <summary><c>Upload-Offset</c> (an sf-integer), which every append carries.</summary>
    public static long Offset(HttpRequest request) =>
        Integer(request.Headers[OffsetHeader].ToString()) ?? throw Invalid("An append carries Upload-Offset: the offset its bytes start at (HEAD gives it).");

    /// <summary>
    /// The length the request indicates (draft, Length): <c>Upload-Length</c>, or for a request that
    /// completes the upload, the offset plus its <c>Content-Length</c>. Both must agree.
    /// </summary>
    public static long? Length(HttpRequest request, long offset, bool complete)
    {
        var sent = request.Headers[LengthHeader].ToString();
        var declared = Integer(sent);
        if (declared is null && sent.Length > 0)
        {
            // A length the client meant but that is no sf-integer (RFC 9651 3.3.1), such as -5: ignoring
            // it would hold the upload to no length at all.
            throw Invalid("Upload-Length is the whole file's length as a non-negative integer of at most 15 digits.");
        }

        var fromContent = complete && request.ContentLength is { } contentLength ? offset + contentLength : (long?)null;
        return declared is { } length && fromContent is { } implied && length != implied
            ? throw new FileTransferException(ErrorReason.SizeMismatch, $"Upload-Length says {length} bytes, but the offset and Content-Length of this request, which completes the upload, make {implied}.")
            : declared ?? fromContent;
    }

    /// <summary>From version 6 an append is <c>application/partial-upload</c> (draft, Upload Append); before, any type.</summary>
    public static bool HasAppendType(HttpRequest request, int version) =>
        version < FirstWithPartialUpload
        || (request.ContentType is { } type && type.Split(';')[0].Trim().Equals(PartialUpload, StringComparison.OrdinalIgnoreCase));

    /// <summary>
    /// The session as the draft describes it on an offset retrieval (draft, Offset Retrieval):
    /// offset, completeness, length when known, limits, and no caching.
    /// </summary>
    public static void WriteStatus(HttpResponse response, UploadSession session, int version, TimeSpan maxAge)
    {
        WriteProgress(response, session, version);
        if (session.Length is { } length)
        {
            response.Headers[LengthHeader] = length.ToString(CultureInfo.InvariantCulture);
        }

        WriteLimits(response, session.MaxBytes, maxAge);
        response.Headers.CacheControl = "no-store";
    }

    /// <summary><c>Upload-Offset</c> and completeness, as every answer to an append or a creation carries them.</summary>
    public static void WriteProgress(HttpResponse response, UploadSession session, int version)
    {
        response.Headers[OffsetHeader] = session.Offset.ToString(CultureInfo.InvariantCulture);
        if (version < FirstWithUploadComplete)
        {
            response.Headers[IncompleteHeader] = session.IsComplete ? "?0" : "?1";
        }
        else
        {
            response.Headers[CompleteHeader] = session.IsComplete ? "?1" : "?0";
        }
    }

    /// <summary><c>Upload-Limit</c> (an sf-dictionary): the largest file, and the seconds the session has left.</summary>
    public static void WriteLimits(HttpResponse response, long maxSize, TimeSpan maxAge) =>
        response.Headers[LimitHeader] = string.Create(CultureInfo.InvariantCulture, $"max-size={maxSize}, max-age={Math.Max(0, (long)maxAge.TotalSeconds)}");

    // RFC 9651 3.3.1: an sf-integer has at most 15 digits; a negative one is no offset or length.
    private static long? Integer(string field)
    {
        var text = field.Trim();
        return text.Length is > 0 and <= 15 && text.All(char.IsAsciiDigit) ? long.Parse(text, CultureInfo.InvariantCulture) : null;
    }

    // RFC 9651 3.3.6: "?1" or "?0".
    private static bool? Boolean(string field) => field.Trim() switch
    {
        "?1" => true,
        "?0" => false,
        _ => null,
    };

    private static FileTransferException Invalid(string message) => new(ErrorReason.InvalidUploadStream, message);
}
