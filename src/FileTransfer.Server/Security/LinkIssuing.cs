using System.Net.Mime;
using System.Text.Json;
using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>Issues signed links: a URL that lets its holder read or write one file until it expires.</summary>
internal static class LinkIssuing
{
    private static readonly TimeSpan DefaultLifetime = TimeSpan.FromHours(1);

    /// <summary>
    /// Issues a link for one file. The caller needs the scope the link grants (<c>read</c> or
    /// <c>write</c>) over that file's folder; a signed link cannot issue links.
    /// </summary>
    // No <param> tags: OpenAPI's comment generator gives an undocumented body the text of the last one.
    [Authorize]
    [ProducesResponseType<LinkResponse>(StatusCodes.Status200OK, MediaTypeNames.Application.Json)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status401Unauthorized, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status403Forbidden, "application/problem+json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status415UnsupportedMediaType, "application/problem+json")]
    public static async Task<IResult> Issue(
        HttpContext context,
        [FromServices] SignedLinkSigner signer,
        [FromServices] IOptions<AuthOptions> auth,
        [FromServices] IOptions<StorageOptions> storage)
    {
        // Read here rather than bound as a parameter: Kestrel's refusal of a body over its limit then
        // reaches the error filter as every other (413), where binding would swallow it.
        LinkRequest? request;
        try
        {
            request = await context.Request.ReadFromJsonAsync<LinkRequest>(context.RequestAborted);
        }
        catch (JsonException ex)
        {
            return HttpErrors.Result(context, ErrorReason.MalformedMessage, $"The request body is not a link request in JSON: {ex.Message}");
        }

        if (request is null)
        {
            return HttpErrors.Result(context, ErrorReason.MalformedMessage, "The request body is not a link request in JSON: it is null.");
        }

        if (LinkRequestRules.Refusals(request) is { Count: > 0 } errors)
        {
            return new ProblemResult(
                new FileTransferException(ErrorReason.MalformedMessage, "One or more fields of the request body are not valid; errors names each."),
                problem => problem.Extensions["errors"] = errors);
        }

        var caller = Callers.Of(context);
        if (caller.Link is not null)
        {
            return Refuse(context, "A signed link cannot issue links; use an API key.");
        }

        if (!caller.Holds(request.Access))
        {
            return Refuse(context, $"The {(caller.Kind == CallerKind.Token ? "token" : "API key")} does not have the '{request.Access}' scope this link would grant.");
        }

        if (FileNames.Check(request.Path) is { } rejection)
        {
            return HttpErrors.Result(context, ErrorReason.InvalidFileName, rejection.Reason);
        }

        // A link grants no more than its issuer holds: the same policy as the access it grants.
        if (AccessPolicy.Refusal(caller, request.Access == Scopes.Write ? FileOperation.Write : FileOperation.Read, request.Path) is { } refused)
        {
            return HttpErrors.Result(context, refused.Reason, refused.Message);
        }

        var lifetime = request.ExpiresInSeconds is { } seconds ? TimeSpan.FromSeconds(seconds) : DefaultLifetime;
        if (lifetime > auth.Value.MaxLinkLifetime)
        {
            return HttpErrors.Result(context, ErrorReason.InvalidLinkRequest, $"A link may live at most {auth.Value.MaxLinkLifetime.TotalSeconds:0} seconds (Auth:MaxLinkLifetime).");
        }

        var isWrite = request.Access == Scopes.Write;
        var maxBytes = isWrite ? request.MaxBytes ?? storage.Value.MaxFileSizeBytes : (long?)null;
        if (maxBytes > storage.Value.MaxFileSizeBytes || (!isWrite && (request.MaxBytes is not null || request.Sha256 is not null)))
        {
            return HttpErrors.Result(context, 
                ErrorReason.InvalidLinkRequest,
                $"MaxBytes and Sha256 apply to write links only; MaxBytes may not exceed {storage.Value.MaxFileSizeBytes} (Storage:MaxFileSizeBytes).");
        }

        var link = new SignedLink(request.Access, request.Path, (signer.Now + lifetime).ToUnixTimeSeconds(), maxBytes, isWrite ? request.Sha256 : null);
        var token = signer.Sign(link);
        var http = context.Request;
        var url = $"{http.Scheme}://{http.Host}{http.PathBase}/{Routes.Files}/{Escape(request.Path)}?{SignedLink.QueryParameter}={token}";
        return Results.Ok(new LinkResponse(url, token, link.Path, link.Access, link.Expires, link.MaxBytes, link.Sha256));
    }

    /// <summary>
    /// A link request that is not JSON: 415 with its reason. Routing sends here what <see cref="Issue"/>
    /// does not consume, instead of answering a bare 415 itself; like that answer, it reads nothing
    /// and needs no credential.
    /// </summary>
    /// <param name="context">The request.</param>
    [AllowAnonymous]
    [ExcludeFromDescription]
    public static IResult NotJson(HttpContext context) => HttpErrors.Result(context, ErrorReason.UnsupportedMediaType, "POST api/links takes application/json.");

    // Each segment escaped on its own so that '/' stays a separator (RFC 3986 3.3).
    private static string Escape(string name) => string.Join('/', name.Split('/').Select(Uri.EscapeDataString));

    private static ProblemResult Refuse(HttpContext context, string detail) => HttpErrors.Result(context, ErrorReason.PermissionDenied, detail);
}
