using FileTransfer.Core;
using Microsoft.Net.Http.Headers;

namespace FileTransfer.Server.Rest;

/// <summary>Headers every file response carries besides what PhysicalFileResult writes.</summary>
internal static class DownloadHeaders
{
    public static void Apply(IHeaderDictionary headers, FileVersion file)
    {
        // User-uploaded bytes must never run as script in our origin: no sniffing, and active
        // types (see ActiveContent) are attachments rather than rendered inline.
        headers.XContentTypeOptions = "nosniff";

        var disposition = new ContentDispositionHeaderValue(ActiveContent.Is(file.ContentType) ? "attachment" : "inline");
        disposition.SetHttpFileName(Path.GetFileName(file.Name));
        headers.ContentDisposition = disposition.ToString();
    }
}
