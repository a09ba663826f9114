using System.Net.Mime;
using FileTransfer.Core;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Security;

/// <summary>Who the request's credential is, and what it grants: for a client (the web page) that offers only what the caller may do.</summary>
internal static class CallerEndpoint
{
    /// <summary>
    /// The caller of this request: its id (<c>key:…</c>, <c>user:…</c>, <c>link:…</c>, <c>anonymous</c>),
    /// its scopes, the folders they apply to (null: the whole tree) and, for a signed link, its one
    /// file. No credential: the anonymous caller (who reads where anonymous reads are allowed). The
    /// server decides every request by the same policy whatever this says.
    /// </summary>
    /// <param name="context">The request.</param>
    [AllowAnonymous]
    [ProducesResponseType<CallerDescription>(StatusCodes.Status200OK, MediaTypeNames.Application.Json)]
    public static IResult Get(HttpContext context)
    {
        var caller = Callers.Of(context);
        return Results.Ok(new CallerDescription(caller.Id, [.. Scopes.All.Where(caller.Holds)], caller.Folders, caller.Link?.Name));
    }
}

/// <summary>A caller as <c>GET api/caller</c> describes it.</summary>
/// <param name="Id">Who: <c>key:&lt;id&gt;</c>, <c>user:&lt;subject&gt;</c>, <c>link:&lt;id&gt;</c> or <c>anonymous</c>.</param>
/// <param name="Scopes">Any of <c>read</c>, <c>write</c>, <c>delete</c>.</param>
/// <param name="Folders">The folders the scopes apply to; null for the whole tree.</param>
/// <param name="Link">A signed link's one file; null for every other caller.</param>
public sealed record CallerDescription(string Id, IReadOnlyList<string> Scopes, IReadOnlyList<string>? Folders, string? Link);
