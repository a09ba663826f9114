using System.Net.Mime;
using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>Issues signed links: a URL that lets its holder read or write one file until it expires.</summary>
[ApiController]
[Route("api/links")]
[Authorize]
internal sealed class LinksController(
    SignedLinkSigner signer,
    IOptions<AuthOptions> auth,
    IOptions<StorageOptions> storage) : ControllerBase
{
    private static readonly TimeSpan DefaultLifetime = TimeSpan.FromHours(1);

    /// <summary>
    /// Issues a link for one file. The caller needs the scope the link grants (<c>read</c> or
    /// <c>write</c>) over that file's folder; a signed link cannot issue links.
    /// </summary>
    [HttpPost]
    [Consumes(MediaTypeNames.Application.Json)]
    [ProducesResponseType<LinkResponse>(StatusCodes.Status200OK, MediaTypeNames.Application.Json)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status401Unauthorized, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status403Forbidden, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status415UnsupportedMediaType, "application/problem+json")]
    public IActionResult Issue(LinkRequest request)
    {
        var caller = Callers.Of(HttpContext);
        if (caller.Link is not null)
        {
            return Refuse("A signed link cannot issue links; use an API key.");
        }

        if (!caller.Holds(request.Access))
        {
            return Refuse($"The {(caller.Kind == CallerKind.Token ? "token" : "API key")} does not have the '{request.Access}' scope this link would grant.");
        }

        if (FileNames.Check(request.Path) is { } rejection)
        {
            return this.Problem(ErrorReason.InvalidFileName, rejection.Reason);
        }

        // A link grants no more than its issuer holds: the same policy as the access it grants.
        if (AccessPolicy.Refusal(caller, request.Access == Scopes.Write ? FileOperation.Write : FileOperation.Read, request.Path) is { } refused)
        {
            return this.Problem(refused.Reason, refused.Message);
        }

        var lifetime = request.ExpiresInSeconds is { } seconds ? TimeSpan.FromSeconds(seconds) : DefaultLifetime;
        if (lifetime > auth.Value.MaxLinkLifetime)
        {
            return this.Problem(ErrorReason.InvalidLinkRequest, $"A link may live at most {auth.Value.MaxLinkLifetime.TotalSeconds:0} seconds (Auth:MaxLinkLifetime).");
        }

        var isWrite = request.Access == Scopes.Write;
        var maxBytes = isWrite ? request.MaxBytes ?? storage.Value.MaxFileSizeBytes : (long?)null;
        if (maxBytes > storage.Value.MaxFileSizeBytes || (!isWrite && (request.MaxBytes is not null || request.Sha256 is not null)))
        {
            return this.Problem(
                ErrorReason.InvalidLinkRequest,
                $"MaxBytes and Sha256 apply to write links only; MaxBytes may not exceed {storage.Value.MaxFileSizeBytes} (Storage:MaxFileSizeBytes).");
        }

        var link = new SignedLink(request.Access, request.Path, (signer.Now + lifetime).ToUnixTimeSeconds(), maxBytes, isWrite ? request.Sha256 : null);
        var token = signer.Sign(link);
        var url = $"{Request.Scheme}://{Request.Host}{Request.PathBase}/{Routes.Files}/{Escape(request.Path)}?{SignedLink.QueryParameter}={token}";
        return Ok(new LinkResponse(url, token, link.Path, link.Access, link.Expires, link.MaxBytes, link.Sha256));
    }

    /// <summary>
    /// A link request that is not JSON: 415 with its reason. Routing sends here what <see cref="Issue"/>
    /// does not consume, instead of answering a bare 415 itself; like that answer, it reads nothing
    /// and needs no credential.
    /// </summary>
    [HttpPost]
    [AllowAnonymous]
    [ApiExplorerSettings(IgnoreApi = true)]
    public IActionResult NotJson() => this.Problem(ErrorReason.UnsupportedMediaType, "POST api/links takes application/json.");

    // Each segment escaped on its own so that '/' stays a separator (RFC 3986 3.3).
    private static string Escape(string name) => string.Join('/', name.Split('/').Select(Uri.EscapeDataString));

    private ProblemResult Refuse(string detail) => this.Problem(ErrorReason.PermissionDenied, detail);
}
