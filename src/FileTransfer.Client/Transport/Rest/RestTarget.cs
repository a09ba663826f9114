namespace FileTransfer.Client.Transport.Rest;

/// <summary>
/// Where a REST request goes: a name resolved against the server
/// (<c>videos/big.bin</c> → <c>{server}/api/files/videos/big.bin</c>), or a full URL used as it
/// is, which is how signed links work: the query string carries the authorization, so no API
/// key is added to it.
/// </summary>
/// <param name="Url">The URL requests go to.</param>
/// <param name="Name">The file name, for messages.</param>
/// <param name="IsLink">True when the caller gave a full URL.</param>
internal sealed record RestTarget(Uri Url, string Name, bool IsLink)
{
    private const string FilesPath = "api/files/";

    public static RestTarget Resolve(string nameOrUrl, Uri server)
    {
        if (Links.TryParse(nameOrUrl, out var url))
        {
            return new RestTarget(url, Links.NameOf(url), IsLink: true);
        }

        if (nameOrUrl.Length == 0)
        {
            throw new FileTransferException(FileTransferErrorKind.InvalidRequest, "The file name is empty.");
        }

        // Each segment is escaped once; '/' stays a separator (the server's {**path} route).
        var escaped = string.Join('/', nameOrUrl.Split('/').Select(Uri.EscapeDataString));
        return new RestTarget(new Uri(BaseOf(server), FilesPath + escaped), nameOrUrl, IsLink: false);
    }

    /// <summary>The listing URL, <c>{server}/api/files?prefix=...&amp;pageSize=...</c>.</summary>
    public static Uri ListUrl(Uri server, string? prefix, int pageSize)
    {
        var query = new List<string>();
        if (!string.IsNullOrEmpty(prefix))
        {
            query.Add("prefix=" + Uri.EscapeDataString(prefix));
        }

        if (pageSize > 0)
        {
            query.Add("pageSize=" + pageSize.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }

        return new Uri(BaseOf(server), query.Count == 0 ? "api/files" : "api/files?" + string.Join('&', query));
    }

    // A server URL with a path base ("https://host/ft") must keep it: resolve against "…/ft/".
    private static Uri BaseOf(Uri server) =>
        server.AbsolutePath.EndsWith('/') ? server : new Uri(server.GetLeftPart(UriPartial.Path) + "/");
}
