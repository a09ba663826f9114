using Microsoft.Extensions.FileProviders;

namespace FileTransfer.Server.Web;

/// <summary>
/// The web page for people (<c>wwwroot</c>: plain HTML, CSS and ES modules, no build step) at the
/// application's root, before authentication: the page itself is public, everything it does goes
/// through the API with the visitor's own key.
/// </summary>
internal static class WebPage
{
    /// <summary>
    /// <c>/</c> (and <c>PathBase + "/"</c>: a request for the bare path base is redirected there by
    /// the default-files middleware, so the page's relative URLs resolve under the prefix) serves
    /// <c>index.html</c>; every file of the page carries <see cref="WebPageHeaders"/>. Routes the page
    /// does not have (<c>/swagger</c>, <c>/api</c>, <c>/healthz</c>, ...) fall through untouched.
    /// </summary>
    public static WebApplication UseWebPage(this WebApplication app)
    {
        // The content root's wwwroot: the project folder under "dotnet run", the server's own folder
        // when built or published (the project copies wwwroot there). Absent, nothing is served.
        // The API's requests matched an endpoint, which the static-file middlewares never serve:
        // only the others go through them (two middlewares less on every API request).
        IFileProvider files = app.Environment.WebRootFileProvider;
        app.UseWhen(context => context.GetEndpoint() is null, page => page
            .UseDefaultFiles(new DefaultFilesOptions { FileProvider = files })
            .UseStaticFiles(new StaticFileOptions
            {
                FileProvider = files,
                // Called for 200, 206, 304 and 412 alike, so a revalidated page keeps its policy.
                OnPrepareResponse = context => WebPageHeaders.Apply(context.Context.Response.Headers),
            }));
        return app;
    }
}
