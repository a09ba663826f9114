using Microsoft.Extensions.Primitives;
using Microsoft.Net.Http.Headers;

namespace FileTransfer.Server.Rest;

/// <summary>
/// The two cases where RFC 9110 says a Range header field must be ignored and PhysicalFileResult
/// serves the range anyway: it reads any range unit as bytes, and takes an If-Range it cannot
/// parse for an absent one. Everything else about ranges and conditionals stays with it.
/// </summary>
internal static class IgnoredRanges
{
    private const string BytesUnit = "bytes";

    /// <summary>Removes the request's Range header field when it must be ignored, so that the whole file is sent (200).</summary>
    public static void Apply(HttpRequest request)
    {
        var headers = request.Headers;
        if (!StringValues.IsNullOrEmpty(headers.Range) && MustBeIgnored(headers))
        {
            headers.Remove(HeaderNames.Range);
        }
    }

    private static bool MustBeIgnored(IHeaderDictionary headers)
    {
        // RFC 9110 14.2: "An origin server MUST ignore a Range header field that contains a range
        // unit it does not understand." Range unit names are case-insensitive (14.1).
        if (RangeHeaderValue.TryParse(headers.Range.ToString(), out var range)
            && !string.Equals(range.Unit.Value, BytesUnit, StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }

        // RFC 9110 13.1.5: If-Range carries one entity tag or one HTTP-date; for anything else the
        // condition is false, and when it is false "the server MUST ignore the Range header field".
        var ifRange = headers.IfRange;
        return !StringValues.IsNullOrEmpty(ifRange) && !RangeConditionHeaderValue.TryParse(ifRange.ToString(), out _);
    }
}
