using System.Net.Mime;
using FileTransfer.Core;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Rest;

/// <summary>The usage of folders that have a quota.</summary>
internal static class UsageReport
{
    /// <summary>
    /// The usage of the quota on <paramref name="path"/> (<c>Quotas:N:Path</c>): bytes and files stored
    /// or reserved by unfinished uploads, and the limits. Needs the <c>read</c> scope over the folder
    /// (403 otherwise, whether or not it has a quota); 404 when no quota is configured on it.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="quotas">The quotas.</param>
    /// <param name="path">The folder, e.g. <c>teams/a/</c> (empty for the whole tree).</param>
    [Operation(FileOperation.Read)]
    [ProducesResponseType<QuotaUsage>(StatusCodes.Status200OK, MediaTypeNames.Application.Json)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status404NotFound, "application/problem+json")]
    public static async Task<IResult> Get(HttpContext context, [FromServices] Quotas quotas, [FromQuery] string? path) =>
        Results.Ok(await quotas.UsageAsync(Callers.Of(context), path, context.RequestAborted));
}
