using Microsoft.AspNetCore.StaticFiles;

namespace FileTransfer.Server.Storage;

/// <summary>Content type from the file extension, as static file servers do.</summary>
internal sealed class ContentTypes
{
    public const string Fallback = "application/octet-stream";

    private readonly FileExtensionContentTypeProvider _provider = new();

    public string For(string fileName) =>
        _provider.TryGetContentType(fileName, out var contentType) ? contentType : Fallback;

    /// <summary>
    /// Types a browser would run as script in our origin when opened inline
    /// (HTML, SVG, XML, JavaScript): these are always sent as attachments.
    /// </summary>
    public static bool IsActiveContent(string contentType)
    {
        var mediaType = contentType.Split(';')[0].Trim();
        return mediaType.Equals("text/html", StringComparison.OrdinalIgnoreCase)
            || mediaType.Equals("application/xhtml+xml", StringComparison.OrdinalIgnoreCase)
            || mediaType.Equals("text/xml", StringComparison.OrdinalIgnoreCase)
            || mediaType.Equals("application/xml", StringComparison.OrdinalIgnoreCase)
            || mediaType.EndsWith("+xml", StringComparison.OrdinalIgnoreCase)
            || mediaType.Contains("javascript", StringComparison.OrdinalIgnoreCase)
            || mediaType.Equals("text/ecmascript", StringComparison.OrdinalIgnoreCase);
    }
}
