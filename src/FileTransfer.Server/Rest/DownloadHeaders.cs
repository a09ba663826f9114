using FileTransfer.Core;
using FileTransfer.Server.Protocol;

namespace FileTransfer.Server.Rest;

/// <summary>Headers every file response carries besides what PhysicalFileResult writes.</summary>
internal static class DownloadHeaders
{
    public static void Apply(IHeaderDictionary headers, FileVersion file)
    {
        // User-uploaded bytes must never run as script in our origin: no sniffing, and active
        // types are attachments rather than rendered inline.
        headers.XContentTypeOptions = "nosniff";
        headers.ContentDisposition = DownloadDisposition.For(file);
    }
}
