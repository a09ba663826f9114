using System.Globalization;
using System.Text;
using FileTransfer.Core;
using Microsoft.Extensions.Primitives;

namespace FileTransfer.Server.Rest;

/// <summary>
/// tus 1.0.0 (tus.io/protocols/resumable-upload) on the wire: its headers read into the core's
/// terms and the session written back into its headers. What is decided (names, limits, offsets,
/// owners, expiry) is the core's; this only spells it.
/// </summary>
internal static class TusProtocol
{
    public const string Version = "1.0.0";
    public const string ResumableHeader = "Tus-Resumable";
    public const string VersionHeader = "Tus-Version";
    public const string ExtensionHeader = "Tus-Extension";
    public const string MaxSizeHeader = "Tus-Max-Size";
    public const string ChecksumAlgorithmHeader = "Tus-Checksum-Algorithm";
    public const string OffsetHeader = "Upload-Offset";
    public const string LengthHeader = "Upload-Length";
    public const string DeferLengthHeader = "Upload-Defer-Length";
    public const string MetadataHeader = "Upload-Metadata";
    public const string ChecksumHeader = "Upload-Checksum";
    public const string ExpiresHeader = "Upload-Expires";

    /// <summary>The body type of PATCH and of creation-with-upload.</summary>
    public const string OffsetOctetStream = "application/offset+octet-stream";

    /// <summary>The extensions served (tus 1.0.0 "Protocol Extensions"); concatenation is not.</summary>
    public const string Extensions = "creation,creation-with-upload,creation-defer-length,termination,expiration,checksum";

    /// <summary>Metadata keys read: the file's name, an optional folder, and the whole file's SHA-256 (hex).</summary>
    public const string FileNameKey = "filename";
    public const string FolderKey = "folder";
    public const string Sha256Key = "sha256";

    /// <summary>True for a request that speaks tus (it carries <c>Tus-Resumable</c>).</summary>
    public static bool IsRequest(HttpRequest request) => request.Headers.ContainsKey(ResumableHeader);

    /// <summary>tus 1.0.0 "Tus-Resumable": 412 (with the versions served) for any other version, or none.</summary>
    public static void CheckVersion(HttpRequest request)
    {
        var sent = request.Headers[ResumableHeader].ToString();
        if (sent != Version)
        {
            request.HttpContext.Response.Headers[VersionHeader] = Version;
            throw new FileTransferException(ErrorReason.UnsupportedProtocolVersion, sent.Length == 0
                ? $"Send Tus-Resumable: {Version} (tus), or Upload-Draft-Interop-Version (the IETF resumable-upload draft)."
                : $"Tus-Resumable {sent} is not supported; this server speaks tus {Version}.");
        }
    }

    /// <summary>Adds <c>Tus-Resumable</c> to the response, whatever it turns out to be (errors included).</summary>
    public static void AnswerAsTus(HttpResponse response) =>
        response.OnStarting(() =>
        {
            response.Headers[ResumableHeader] = Version;
            return Task.CompletedTask;
        });

    /// <summary>
    /// The length a creation declares: <c>Upload-Length</c>, or null with <c>Upload-Defer-Length: 1</c>
    /// (creation-defer-length); one of the two is required.
    /// </summary>
    public static long? CreationLength(HttpRequest request)
    {
        var length = Length(request);
        var deferred = request.Headers[DeferLengthHeader].ToString();
        return (length, deferred) switch
        {
            ({ } declared, "") => declared,
            (null, "1") => null,
            (null, "") => throw Invalid("Send Upload-Length, or Upload-Defer-Length: 1 when the length is not known yet."),
            _ => throw Invalid("Send Upload-Length or Upload-Defer-Length: 1, not both, and Upload-Defer-Length only as 1."),
        };
    }

    /// <summary><c>Upload-Length</c> when sent (a non-negative integer), else null.</summary>
    public static long? Length(HttpRequest request) =>
        request.Headers[LengthHeader] is { Count: > 0 } value ? NonNegative(value, LengthHeader) : null;

    /// <summary><c>Upload-Offset</c>, which every PATCH carries.</summary>
    public static long Offset(HttpRequest request) =>
        request.Headers[OffsetHeader] is { Count: > 0 } value ? NonNegative(value, OffsetHeader) : throw Invalid("A PATCH carries Upload-Offset: the offset its bytes start at (HEAD gives it).");

    /// <summary>
    /// <c>Upload-Metadata</c> (tus 1.0.0: comma-separated <c>key base64value</c> pairs, a key alone
    /// for an empty value), as a dictionary of the decoded bytes; a malformed one is refused. The
    /// field is kept and sent back as it came (HEAD), so it must be what a response may carry:
    /// visible ASCII, spaces and commas (a key is ASCII, tus 1.0.0; a value is base64).
    /// </summary>
    public static Dictionary<string, byte[]> Metadata(string header)
    {
        if (!header.All(c => c is >= ' ' and <= '~'))
        {
            throw Invalid("Upload-Metadata keys are ASCII without spaces or commas, and values base64: the field has a character that is neither.");
        }

        var pairs = new Dictionary<string, byte[]>(StringComparer.Ordinal);
        foreach (var pair in header.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
        {
            var parts = pair.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (parts.Length is 0 or > 2 || !pairs.TryAdd(parts[0], parts.Length == 1 ? [] : Decode(parts[0], parts[1])))
            {
                throw Invalid("Upload-Metadata is a comma-separated list of distinct 'key base64value' pairs.");
            }
        }

        return pairs;
    }

    /// <summary>The name the metadata asks for: <c>folder/filename</c>, or <c>filename</c>; one that is not UTF-8 is refused, never altered.</summary>
    public static string NameOf(IReadOnlyDictionary<string, byte[]> metadata)
    {
        var fileName = metadata.TryGetValue(FileNameKey, out var fileNameBytes) ? Utf8(fileNameBytes, FileNameKey) : "";
        if (fileName.Length == 0)
        {
            throw Invalid("Upload-Metadata names the file: 'filename <base64 of the name>' (and optionally 'folder <base64>').");
        }

        var folder = metadata.TryGetValue(FolderKey, out var folderBytes) ? Utf8(folderBytes, FolderKey) : "";
        return folder.Length > 0 ? $"{folder.TrimEnd('/')}/{fileName}" : fileName;
    }

    /// <summary>The whole file's SHA-256 from the metadata's <c>sha256</c> (64 hex digits), or null.</summary>
    public static byte[]? Sha256Of(IReadOnlyDictionary<string, byte[]> metadata)
    {
        if (!metadata.TryGetValue(Sha256Key, out var bytes))
        {
            return null;
        }

        var hex = Encoding.ASCII.GetString(bytes);
        return hex.Length == 64 && hex.All(char.IsAsciiHexDigit)
            ? Convert.FromHexString(hex)
            : throw Invalid("The 'sha256' metadata is the file's SHA-256 as 64 hex digits (base64-encoded, as every metadata value).");
    }

    /// <summary><c>Upload-Checksum: sha256 BASE64</c> (checksum extension) as the core's request checksum, or null.</summary>
    public static RequestChecksum? Checksum(HttpRequest request)
    {
        var header = request.Headers[ChecksumHeader].ToString();
        if (header.Length == 0)
        {
            return null;
        }

        var parts = header.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        var value = parts.Length == 2 ? TryBase64(parts[1]) : null;
        return value is null
            ? throw Invalid("Upload-Checksum is '<algorithm> <base64 of the checksum>'.")
            : RequestChecksum.Create(parts[0], value);
    }

    /// <summary>The session as tus describes it: offset, length (or deferred), metadata, expiry; never cached.</summary>
    public static void WriteStatus(HttpResponse response, UploadSession session)
    {
        var headers = response.Headers;
        headers[OffsetHeader] = session.Offset.ToString(CultureInfo.InvariantCulture);
        if (session.Length is { } length)
        {
            headers[LengthHeader] = length.ToString(CultureInfo.InvariantCulture);
        }
        else
        {
            headers[DeferLengthHeader] = "1";
        }

        if (session.Metadata is { Length: > 0 } metadata)
        {
            headers[MetadataHeader] = metadata;
        }

        WriteExpiry(response, session);
        headers.CacheControl = "no-store";
    }

    /// <summary>tus expiration extension: <c>Upload-Expires</c> as an HTTP-date (RFC 9110 5.6.7).</summary>
    public static void WriteExpiry(HttpResponse response, UploadSession session) =>
        response.Headers[ExpiresHeader] = session.ExpiresAt.ToString("r", CultureInfo.InvariantCulture);

    private static long NonNegative(StringValues value, string header) =>
        long.TryParse(value.ToString(), NumberStyles.None, CultureInfo.InvariantCulture, out var number)
            ? number
            : throw Invalid($"{header} is a non-negative integer.");

    private static byte[] Decode(string key, string base64) =>
        TryBase64(base64) ?? throw Invalid($"The value of Upload-Metadata '{key}' is not base64.");

    // A name that is not UTF-8 is refused as REST and the draft refuse one: decoding it leniently
    // would store the file under another name (U+FFFD in place of each bad byte).
    private static string Utf8(byte[] bytes, string key)
    {
        try
        {
            return StrictUtf8.GetString(bytes);
        }
        catch (DecoderFallbackException)
        {
            throw new FileTransferException(ErrorReason.InvalidFileName, $"The '{key}' metadata is not UTF-8 once base64-decoded.");
        }
    }

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private static byte[]? TryBase64(string text)
    {
        var bytes = new byte[(text.Length * 3 / 4) + 3];
        return Convert.TryFromBase64String(text, bytes, out var written) ? bytes[..written] : null;
    }

    private static FileTransferException Invalid(string message) => new(ErrorReason.InvalidUploadStream, message);
}
