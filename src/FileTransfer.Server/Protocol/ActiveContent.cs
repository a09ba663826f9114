namespace FileTransfer.Server.Protocol;

/// <summary>
/// Media types a browser (or a plug-in or shell it hands them to) would run as code in our origin
/// when opened inline. Downloads of these are sent as attachments; the rule only chooses
/// Content-Disposition (<see cref="DownloadDisposition"/>), which REST sends and a presigned URL asks
/// the store to send, whichever protocol asked for it.
/// </summary>
internal static class ActiveContent
{
    // Types that are active without "html", "script" or "xml" in their name: MHTML archives
    // (.mht, .mhtml, rendered as HTML), HTML components (.htc), HTML applications (.hta), Flash.
    private static readonly HashSet<string> Listed = new(StringComparer.OrdinalIgnoreCase)
    {
        "message/rfc822",
        "text/x-component",
        "application/hta",
        "application/x-shockwave-flash",
    };

    public static bool Is(string contentType)
    {
        var mediaType = contentType.Split(';')[0].Trim();

        // HTML in any dress (text/html, application/xhtml+xml, text/webviewhtml); scripts
        // (JavaScript, ECMAScript, JScript, VBScript, scriptlets); XML, which renders with its own
        // script and stylesheets, and every +xml type such as SVG.
        return mediaType.Contains("html", StringComparison.OrdinalIgnoreCase)
            || mediaType.Contains("script", StringComparison.OrdinalIgnoreCase)
            || mediaType.Equals("text/xml", StringComparison.OrdinalIgnoreCase)
            || mediaType.Equals("application/xml", StringComparison.OrdinalIgnoreCase)
            || mediaType.EndsWith("+xml", StringComparison.OrdinalIgnoreCase)
            || Listed.Contains(mediaType);
    }
}
