using FileTransfer.Core;
using Microsoft.Extensions.Primitives;
using Microsoft.Net.Http.Headers;

namespace FileTransfer.Server.Rest;

/// <summary>
/// A download request's conditional header fields as a redirected client sends them on to the store
/// (<see cref="ForwardedConditions"/>), so that the backend can say whether its store decides them
/// right (<see cref="FileOperations.RedirectsDownload"/>).
/// </summary>
internal static class ForwardedConditionHeaders
{
    public static ForwardedConditions Of(IHeaderDictionary headers) =>
        StringValues.IsNullOrEmpty(headers.IfMatch) && StringValues.IsNullOrEmpty(headers.IfNoneMatch)
            && StringValues.IsNullOrEmpty(headers.IfModifiedSince) && StringValues.IsNullOrEmpty(headers.IfUnmodifiedSince)
            && StringValues.IsNullOrEmpty(headers.IfRange)
            ? ForwardedConditions.None
            : new(
                Tags(headers.IfMatch),
                Tags(headers.IfNoneMatch),
                !StringValues.IsNullOrEmpty(headers.IfModifiedSince),
                !StringValues.IsNullOrEmpty(headers.IfUnmodifiedSince),
                // RFC 9110 13.1.5: If-Range only matters with a Range it governs.
                !StringValues.IsNullOrEmpty(headers.IfRange) && !StringValues.IsNullOrEmpty(headers.Range));

    // Each entity tag as sent; a field that does not parse is kept whole, which no store is trusted with.
    private static string[] Tags(StringValues field)
    {
        if (StringValues.IsNullOrEmpty(field))
        {
            return [];
        }

        return EntityTagHeaderValue.TryParseList(field, out var tags)
            ? [.. tags.Select(tag => tag.ToString())]
            : [field.ToString()];
    }
}
