namespace FileTransfer.Cli.Http;

/// <summary>
/// A file on the server: either a name resolved against <c>--server</c>
/// (<c>videos/big.bin</c> → <c>{server}/api/files/videos/big.bin</c>), or a full URL used as it
/// is, which is how signed links work: the query string carries the authorization, so no API
/// key is added to it.
/// </summary>
/// <param name="Url">The URL requests go to.</param>
/// <param name="Name">The file name, for messages and default output names.</param>
/// <param name="IsLink">True when the user gave a full URL.</param>
internal sealed record RemoteFile(Uri Url, string Name, bool IsLink)
{
    private const string FilesPath = "api/files/";

    public static RemoteFile Resolve(string nameOrUrl, Uri server)
    {
        if (Uri.TryCreate(nameOrUrl, UriKind.Absolute, out var url) && (url.Scheme == Uri.UriSchemeHttp || url.Scheme == Uri.UriSchemeHttps))
        {
            var path = url.AbsolutePath;
            var at = path.IndexOf("/" + FilesPath, StringComparison.Ordinal);
            var name = at >= 0 ? path[(at + FilesPath.Length + 1)..] : path.TrimStart('/');
            return new RemoteFile(url, Uri.UnescapeDataString(name), IsLink: true);
        }

        if (nameOrUrl.Length == 0)
        {
            throw new CliException(ExitCodes.Usage, "The file name is empty.");
        }

        // Each segment is escaped once; '/' stays a separator (the server's {**path} route).
        var escaped = string.Join('/', nameOrUrl.Split('/').Select(Uri.EscapeDataString));
        return new RemoteFile(new Uri(BaseOf(server), FilesPath + escaped), nameOrUrl, IsLink: false);
    }

    /// <summary>The listing URL, <c>{server}/api/files?prefix=...</c>.</summary>
    public static Uri ListUrl(Uri server, string? prefix) =>
        new(BaseOf(server), string.IsNullOrEmpty(prefix) ? "api/files" : "api/files?prefix=" + Uri.EscapeDataString(prefix));

    /// <summary>The last segment of the name: the default local file name.</summary>
    public string FileName => Name.Split('/')[^1];

    // A server URL with a path base ("https://host/ft") must keep it: resolve against "…/ft/".
    private static Uri BaseOf(Uri server) =>
        server.AbsolutePath.EndsWith('/') ? server : new Uri(server.GetLeftPart(UriPartial.Path) + "/");
}
