using System.Collections.Concurrent;
using System.Security.Claims;
using FileTransfer.Core;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// Endpoints under api/files declared outside the server, without any authorization of their own:
/// each declares only its operation (as every product endpoint does), or none at all, and gets the
/// server's operation convention as the product's endpoints do. Each answers with the caller's claims.
/// Mapped into the server's own routes once its pipeline is built (a startup filter), so that they
/// pass its authentication, rate limits and authorization like any endpoint.
/// </summary>
public sealed class ScopeProbeEndpoints : IStartupFilter
{
    // Where the host's pipeline keeps the WebApplication whose routes it serves (ASP.NET Core's key, as UseRouting reads it).
    private const string RouteBuilderKey = "__EndpointRouteBuilder";

    /// <summary>The principal each request tagged <c>?probe=ID</c> ran as, so a test can compare instances.</summary>
    public static ConcurrentDictionary<string, ClaimsPrincipal> Principals { get; } = new(StringComparer.Ordinal);

    public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
    {
        next(app);
        var routes = app.Properties.TryGetValue(RouteBuilderKey, out var value) && value is IEndpointRouteBuilder builder
            ? builder
            : throw new InvalidOperationException("The server's route builder is not where WebApplication keeps it.");
        Map(routes);
    };

    private static void Map(IEndpointRouteBuilder routes)
    {
        var probes = routes.MapGroup("").RequireOperationScopes();

        // A read; records the request's principal under ?probe=.
        probes.MapGet("api/files/probe-principal/{**path}", (HttpContext context, string path, string probe) =>
        {
            Principals[probe] = context.User;
            return Claims(context, path);
        }).WithMetadata(new OperationAttribute(FileOperation.Read));

        probes.MapMethods("api/files/probe/{**path}", [HttpMethods.Put, HttpMethods.Post], (HttpContext context, string path) => Claims(context, path))
            .WithMetadata(new OperationAttribute(FileOperation.Write));
        probes.MapDelete("api/files/probe/{**path}", (HttpContext context, string path) => Claims(context, path))
            .WithMetadata(new OperationAttribute(FileOperation.Delete));

        // Declares no operation: it fails closed and needs every scope.
        probes.Map("api/files/probe-any-method/{**path}", (HttpContext context, string path) => Claims(context, path));

        // Shaped like a gRPC method (/package.Service/Method, no path route value) and authorized by the read policy, as gRPC methods are.
        probes.MapPost("probe.v1.ProbeService/Read", (HttpContext context) => Claims(context, "")).WithMetadata(new AuthorizeAttribute("read"));

        // Fails with the request's query and Authorization header in the exception message, as careless code might.
        probes.MapGet("api/files/probe-fail/{**path}", (HttpContext context, string path) =>
            Throw($"Could not serve {path}{context.Request.QueryString} for {context.Request.Headers.Authorization}"))
            .WithMetadata(new OperationAttribute(FileOperation.Read));

        probes.MapGet("api/probe/throw", () => Throw($"Boom in {AppContext.BaseDirectory}"));
    }

    private static IResult Throw(string message) => throw new InvalidOperationException(message);

    private static IResult Claims(HttpContext context, string path) =>
        Results.Ok(new
        {
            path,
            claims = context.User.Claims.GroupBy(c => c.Type).ToDictionary(g => g.Key, g => g.Select(c => c.Value).ToArray()),
        });
}
