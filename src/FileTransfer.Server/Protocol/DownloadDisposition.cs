using FileTransfer.Core;
using Microsoft.Net.Http.Headers;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// The <c>Content-Disposition</c> of a download (RFC 6266), the same whether this server sends the
/// bytes or the store does behind a presigned URL (REST's redirect, gRPC's GetDownloadUrl).
/// </summary>
internal static class DownloadDisposition
{
    // Building the value (the media type's check, the file name's RFC 8187 encoding) cost about
    // 1 µs of a 1 KiB GET's 33 (docs/performance-notes.md); the same names come back.
    private static readonly RecentValues<(string Name, string ContentType), string> Recent = new(4096, Build);

    public static string For(FileVersion file) => Recent[(file.Name, file.ContentType)];

    private static string Build((string Name, string ContentType) file)
    {
        // User-uploaded bytes must never run as script in our origin: active types (see
        // ActiveContent) are attachments rather than rendered inline.
        var disposition = new ContentDispositionHeaderValue(ActiveContent.Is(file.ContentType) ? "attachment" : "inline");

        // RFC 6266 4.3 / RFC 8187: filename with an ASCII fallback and filename* for the rest.
        disposition.SetHttpFileName(Path.GetFileName(file.Name));
        return disposition.ToString();
    }
}
