using Microsoft.AspNetCore.WebUtilities;

namespace FileTransfer.Server.Rest;

/// <summary>The next page of a listing as a URL for a <c>Link: rel="next"</c> header (RFC 8288 3).</summary>
internal static class ListingLinks
{
    /// <summary>The request's own path and query with <c>pageToken</c> replaced: relative, so it works behind a proxy's path base.</summary>
    public static string NextPage(HttpRequest request, string pageToken)
    {
        var query = QueryHelpers.ParseQuery(request.QueryString.Value)
            .Where(p => !p.Key.Equals("pageToken", StringComparison.OrdinalIgnoreCase))
            .SelectMany(p => p.Value.Select(v => new KeyValuePair<string, string?>(p.Key, v)))
            .Append(new("pageToken", pageToken));
        return QueryHelpers.AddQueryString($"{request.PathBase}{request.Path}", query);
    }
}
