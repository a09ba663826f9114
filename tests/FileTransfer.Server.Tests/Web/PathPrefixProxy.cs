using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;

namespace FileTransfer.Server.Tests.Web;

/// <summary>
/// Stands in for a reverse proxy that publishes the server under a path prefix and strips it
/// (nginx <c>location /ft/ { proxy_pass http://server/; }</c>): the application sees <c>/api/...</c>,
/// sets no PathBase, and its own absolute paths (the listing's Link, a link's url, tus Location)
/// are from its root; anything outside the prefix is not the server's.
/// </summary>
public sealed class PathPrefixProxy(string prefix) : IStartupFilter
{
    public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
    {
        app.Use((context, nextMiddleware) =>
        {
            if (!context.Request.Path.StartsWithSegments(prefix, out var rest))
            {
                context.Response.StatusCode = StatusCodes.Status404NotFound;
                return Task.CompletedTask;
            }

            context.Request.Path = rest.HasValue ? rest : "/";
            return nextMiddleware(context);
        });
        next(app);
    };
}
