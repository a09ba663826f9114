using Microsoft.AspNetCore.Http.Features;

namespace FileTransfer.Server.Rest;

/// <summary>
/// OpenAPI describes <c>api/files/{path}</c> with one path parameter, so Swagger UI's "Try it out"
/// and generated clients percent-encode the '/' of a name in a folder (<c>videos%2Fnotes.txt</c>).
/// Kestrel decodes every escape of a path except <c>%2F</c>, which it keeps so that a segment stays
/// a segment; the route value then still holds <c>%2F</c>. This turns it into '/', before
/// authorization and the actions read the value, so that both spellings name the same file on every
/// method and for signed links. It decodes nothing else, and the name rules run afterwards. A
/// separator encoded twice (<c>%252F</c>, which Kestrel's one decoding also leaves as <c>%2F</c>) is
/// left as it is, so that the rules refuse it as double encoding.
/// </summary>
internal static class EncodedSeparators
{
    /// <summary>The route value that holds the file name in <c>api/files/{**path}</c>.</summary>
    public const string PathRouteValue = "path";

    private const string Separator = "%2F";
    private const string TwiceEncodedSeparator = "%252F";

    public static void Use(IApplicationBuilder app) =>
        app.Use((context, next) =>
        {
            if (context.Request.RouteValues.TryGetValue(PathRouteValue, out var value) && value is string path
                && path.Contains(Separator, StringComparison.OrdinalIgnoreCase)
                && context.Features.Get<IHttpRequestFeature>()?.RawTarget.Contains(TwiceEncodedSeparator, StringComparison.OrdinalIgnoreCase) == false)
            {
                context.Request.RouteValues[PathRouteValue] = path.Replace(Separator, "/", StringComparison.OrdinalIgnoreCase);
            }

            return next(context);
        });
}
