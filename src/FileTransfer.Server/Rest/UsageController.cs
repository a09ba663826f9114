using System.Net.Mime;
using FileTransfer.Core;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Rest;

/// <summary>The usage of folders that have a quota.</summary>
[ApiController]
[Route("api/usage")]
internal sealed class UsageController(Quotas quotas) : ControllerBase
{
    /// <summary>
    /// The usage of the quota on <paramref name="path"/> (<c>Quotas:N:Path</c>): bytes and files stored
    /// or reserved by unfinished uploads, and the limits. Needs the <c>read</c> scope over the folder
    /// (403 otherwise, whether or not it has a quota); 404 when no quota is configured on it.
    /// </summary>
    /// <param name="path">The folder, e.g. <c>teams/a/</c> (empty for the whole tree).</param>
    [HttpGet]
    [Operation(FileOperation.Read)]
    [ProducesResponseType<QuotaUsage>(StatusCodes.Status200OK, MediaTypeNames.Application.Json)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status404NotFound, "application/problem+json")]
    public async Task<IActionResult> Get([FromQuery] string? path) =>
        Ok(await quotas.UsageAsync(Callers.Of(HttpContext), path, HttpContext.RequestAborted));
}
