using System.Diagnostics.CodeAnalysis;

namespace FileTransfer.Client.Transport;

/// <summary>Signed links (<c>POST /api/links</c>) are full REST URLs given where a file name is expected.</summary>
internal static class Links
{
    private const string FilesSegment = "/api/files/";

    public static bool TryParse(string nameOrUrl, [NotNullWhen(true)] out Uri? url) =>
        Uri.TryCreate(nameOrUrl, UriKind.Absolute, out url) && (url.Scheme == Uri.UriSchemeHttp || url.Scheme == Uri.UriSchemeHttps);

    /// <summary>The file name inside a link: what follows <c>/api/files/</c>, unescaped.</summary>
    public static string NameOf(Uri url)
    {
        var path = url.AbsolutePath;
        var at = path.IndexOf(FilesSegment, StringComparison.Ordinal);
        return Uri.UnescapeDataString(at >= 0 ? path[(at + FilesSegment.Length)..] : path.TrimStart('/'));
    }
}
