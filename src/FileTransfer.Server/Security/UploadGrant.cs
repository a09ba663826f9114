using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Security.Claims;
using FileTransfer.Server.Storage;

namespace FileTransfer.Server.Security;

/// <summary>
/// What a caller's grant adds to an upload: a signed write link's size cap and SHA-256, read from
/// the claims authentication put on the principal. Protocol-neutral, so that every adapter that
/// builds an <see cref="UploadRequest"/> narrows it by the same rule.
/// </summary>
internal static class UploadGrant
{
    public const string DigestConflict = "The announced digest differs from the one the signed link allows.";

    /// <summary>
    /// <paramref name="request"/> narrowed by the grant, or false when the digest the client
    /// announced contradicts the one the link fixes.
    /// </summary>
    public static bool TryApply(ClaimsPrincipal caller, UploadRequest request, [NotNullWhen(true)] out UploadRequest? narrowed)
    {
        narrowed = null;
        var expected = request.ExpectedSha256;
        if (caller.FindFirst(FileTransferClaims.UploadSha256)?.Value is { } granted)
        {
            var grantedBytes = Convert.FromHexString(granted);
            if (expected is not null && !expected.AsSpan().SequenceEqual(grantedBytes))
            {
                return false;
            }

            expected = grantedBytes;
        }

        narrowed = request with
        {
            ExpectedSha256 = expected,
            MaxBytes = caller.FindFirst(FileTransferClaims.MaxUploadBytes)?.Value is { } max ? long.Parse(max, CultureInfo.InvariantCulture) : request.MaxBytes,
        };
        return true;
    }
}
