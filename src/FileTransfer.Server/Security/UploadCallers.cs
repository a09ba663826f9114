using System.Security.Claims;
using FileTransfer.Core;

namespace FileTransfer.Server.Security;

/// <summary>
/// The caller of an upload-session request in the core's terms (<see cref="UploadCaller"/>), from the
/// claims authentication put on the principal: an API key owns sessions as <c>key:&lt;key id&gt;</c>,
/// a signed link as <c>link:&lt;link id&gt;</c>, and a key with the <c>delete</c> scope may use any
/// session. Protocol-neutral, so that tus, the draft and gRPC compare owners by the same rule.
/// </summary>
internal static class UploadCallers
{
    public static UploadCaller Of(ClaimsPrincipal user) =>
        user.FindFirst(FileTransferClaims.KeyId)?.Value is { } key
            ? new UploadCaller("key:" + key, MayUseAnySession: user.HasClaim(FileTransferClaims.Scope, Scopes.Delete))
            : user.FindFirst(FileTransferClaims.LinkId)?.Value is { } link
                ? new UploadCaller("link:" + link)
                : throw new FileTransferException(ErrorReason.Unauthenticated, "Upload sessions belong to an API key or a signed link: send one.");
}
