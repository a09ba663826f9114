namespace FileTransfer.Server.Web;

/// <summary>The headers on every response of the web page's own files (docs/web.md, "Security").</summary>
internal static class WebPageHeaders
{
    /// <summary>
    /// Only the page's own files run or style it: no inline script or style, no eval, no plug-ins,
    /// no <c>&lt;base&gt;</c>, no framing (CSP 3). Trusted Types with no policy make every HTML
    /// string sink (<c>innerHTML</c> and the like) throw, so a file name can only ever reach the
    /// document as text.
    /// </summary>
    public const string ContentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; " +
        "require-trusted-types-for 'script'; trusted-types 'none'";

    public static void Apply(IHeaderDictionary headers)
    {
        headers.ContentSecurityPolicy = ContentSecurityPolicy;
        headers.XContentTypeOptions = "nosniff";
        headers.XFrameOptions = "DENY";
        headers["Referrer-Policy"] = "no-referrer";
        headers["Cross-Origin-Opener-Policy"] = "same-origin";

        // Revalidated on every load (ETag / Last-Modified make that a 304), so a new version of the
        // page is never mixed with cached modules of the old one.
        headers.CacheControl = "no-cache";
    }
}
